/* i18n_messages.c - the message catalogue: each entry is the English text (the key, exactly as TR() is called)
 * followed by its Japanese and Chinese translations. Terms follow the chapter's editions (docs/glossary.md):
 * 自己注意 / 自注意力, 位置エンコーディング / 位置编码, クエリ・キー・値 / 查询・键・值.
 * Rules for translators: keep every printf conversion (%s, %d ...) in the same order, keep leading and trailing
 * newlines, leave commands (hint, skip, next, solution, steps, jump, back, restart, quit, help) and code in
 * English. tests/unit/test_i18n.c checks the conversions; tests/i18n_catalogue.py checks that every TR("...")
 * in the sources has an entry here with both translations. */
#include "i18n.h"

static const I18nMessage catalogue[] = {
    /* the REPL's notes about Ctrl-C (src/session/session.c: the message of src/lang/eval.c; src/repl/lineedit.c) */
    {{"interrupted (Ctrl-C): everything defined before is kept",
      "中断しました (Ctrl-C): それまでに定義したものはすべて残っています",
      "已中断（Ctrl-C）：之前定义的一切都保留着"}},
    {{"\n(Ctrl-C drops the line; Ctrl-D leaves attn)\n",
      "\n(Ctrl-C はその行を取り消します。Ctrl-D で attn を終了します)\n",
      "\n（Ctrl-C 丢弃这一行；Ctrl-D 退出 attn）\n"}},
    /* the REPL's banner at a terminal (src/repl/main.c) */
    {{"Type the book's lines (torch.zeros, d2l.masked_softmax ...). lesson lists the\n"
      "lessons, help the functions; Ctrl-D leaves.\n",
      "本のコードを入力してください (torch.zeros、d2l.masked_softmax ...)。lesson で\n"
      "レッスンの一覧、help で関数の一覧。Ctrl-D で終了します。\n",
      "输入书中的代码（torch.zeros、d2l.masked_softmax ……）。lesson 列出课程，\n"
      "help 列出函数；Ctrl-D 退出。\n"}},
    /* lesson runner (src/lesson/runner.c) */
    {{"Type this, or press Enter to run it:\n",
      "次の文を入力するか、Enter で実行してください:\n",
      "输入下面的语句，或按 Enter 运行它：\n"}},
    {{"Type this, or an empty line to run it:\n",
      "次の文を入力するか、空行で実行してください:\n",
      "输入下面的语句，或输入空行运行它：\n"}},
    {{"(this step shows a statement to run: press Enter to run it)\n",
      "(このステップは実行する文を示しています: Enter で実行できます)\n",
      "（这一步给出的是要运行的语句：按 Enter 运行）\n"}},
    {{"(detour: Enter runs the next statement)\n",
      "(寄り道: Enter で次の文を実行します)\n",
      "（题外尝试：按 Enter 运行下一条语句）\n"}},
    {{"(a detour: the step still waits for the statement above; Enter runs it)\n",
      "(寄り道です: このステップはまだ上の文を待っています。Enter で実行します)\n",
      "（题外尝试：这一步仍在等待上面的语句；按 Enter 运行它）\n"}},
    {{"(interrupted: the step still waits for this statement; Enter runs it again)\n",
      "(中断しました: このステップはまだこの文を待っています。Enter でもう一度実行します)\n",
      "（已中断：这一步仍在等待这条语句；按 Enter 再运行一次）\n"}},
    {{"(this statement runs without an error in the lesson, so a detour may have changed a name it "
      "uses: restart runs this step again with the lesson's values; skip goes on without it)\n",
      "(この文はレッスンどおりならエラーなく実行されます。寄り道で、この文が使う名前が変わったのかもしれません: "
      "restart でこのステップをレッスンの値でやり直します。skip でこの文を飛ばして進みます)\n",
      "（按课程的步骤，这条语句不会出错，所以可能是题外尝试改变了它用到的某个名字：输入 restart "
      "用课程的值重做这一步；输入 skip 跳过它继续）\n"}},
    {{"(your %s is not the book's: your line %d, `%s`, differs from the book's `%s`; the step still waits: "
      "Enter runs the book's %s, which replaces yours)\n",
      "(あなたの %s は本のものと違います: あなたの %d 行目 `%s` が本の `%s` と違います。ステップはまだ待っています: "
      "Enter で本の %s を実行し、あなたのものを置き換えます)\n",
      "（你的 %s 与书中的不同：你的第 %d 行 `%s` 与书中的 `%s` 不同；这一步仍在等待："
      "按 Enter 运行书中的 %s，它会替换你的）\n"}},
    {{"(your %s is not the book's, so the step still waits: Enter runs the book's %s, which replaces yours)\n",
      "(あなたの %s は本のものと違うので、このステップはまだ待っています: Enter で本の %s を実行し、あなたのものを置き換えます)\n",
      "（你的 %s 与书中的不同，所以这一步仍在等待：按 Enter 运行书中的 %s，它会替换你的版本）\n"}},
    {{"(this printed something else than the lesson shows: a detour may have changed a name it uses, "
      "or drawn random numbers; restart runs this step again with the lesson's values)\n",
      "(この出力はレッスンに書かれたものと違います: 寄り道でこの文が使う名前が変わったか、乱数を引いたのかもしれません。"
      "restart でこのステップをレッスンの値でやり直せます)\n",
      "（这里的输出与课程中写的不同：可能是题外尝试改变了它用到的某个名字，或者抽取了随机数；"
      "输入 restart 用课程的值重做这一步）\n"}},
    {{"(the figure above: press Enter to go on)\n",
      "(上の図を見てください: Enter で先へ進みます)\n",
      "（请看上面的图：按 Enter 继续）\n"}},
    {{"(not graded: %s is set; an answer is a value or an expression typed alone, such as %s)\n",
      "(採点しません: %s に代入しました。答えは値か式だけを入力します。例: %s)\n",
      "（不评分：已给 %s 赋值；答案要单独输入一个值或表达式，例如 %s）\n"}},
    {{"(Every lesson starts with the random generator seeded with 0.)\n",
      "(どのレッスンも乱数生成器をシード 0 で初期化して始まります。)\n",
      "（每一课开始时都用种子 0 初始化随机数生成器。）\n"}},
    {{"(The lesson's statements before step %d run again, so that its variables are as the lesson left them.)\n",
      "(ステップ %d より前のレッスンの文をもう一度実行し、変数をレッスンどおりの状態に戻します。)\n",
      "（重新运行第 %d 步之前的课程语句，使变量恢复为课程中的状态。）\n"}},
    {{"(you are in a lesson already: quit it first, then start another)\n",
      "(すでにレッスン中です: quit で終えてから別のレッスンを始めてください)\n",
      "（你已经在一课之中：先用 quit 退出，再开始另一课）\n"}},
    {{"\nQuestion: %s\n",
      "\n問題: %s\n",
      "\n问题：%s\n"}},
    {{"(type your answer; hint, solution or skip if you are stuck)\n",
      "(答えを入力してください。困ったら hint、solution、skip)\n",
      "（请输入答案；卡住时可输入 hint、solution 或 skip）\n"}},
    {{"(type an answer, or hint)\n",
      "(答えを入力するか、hint と入力してください)\n",
      "（请输入答案，或输入 hint）\n"}},
    {{"Hint %d of %d: %s\n",
      "ヒント %d/%d: %s\n",
      "提示 %d/%d：%s\n"}},
    {{"No more hints: type solution to see the answer.\n",
      "ヒントはもうありません: solution で答えを表示します。\n",
      "没有更多提示了：输入 solution 查看答案。\n"}},
    {{"The answer: %s\n",
      "答え: %s\n",
      "答案：%s\n"}},
    {{"Right.\n",
      "正解です。\n",
      "正确。\n"}},
    {{"Not yet: %s.\n",
      "まだです: %s。\n",
      "还不对：%s。\n"}},
    {{"(type solution to see the answer)\n",
      "(solution で答えを表示します)\n",
      "（输入 solution 查看答案）\n"}},
    {{"\nWelcome back: resuming at step %d of %d (type steps to list them, jump 1 to start over).\n",
      "\nおかえりなさい: ステップ %d/%d から再開します (steps で一覧、jump 1 で最初から)。\n",
      "\n欢迎回来：从第 %d 步（共 %d 步）继续（steps 列出所有步骤，jump 1 从头开始）。\n"}},
    {{"(teaching mode: Enter runs the next statement; type help for commands)\n",
      "(授業モード: Enter で次の文を実行します。コマンドは help で表示)\n",
      "（授课模式：按 Enter 运行下一条语句；输入 help 查看命令）\n"}},
    {{"(type help for lesson commands)\n",
      "(レッスンのコマンドは help で表示されます)\n",
      "（输入 help 查看课程命令）\n"}},
    {{"\nProgress saved: attn lesson %s resumes here.\n",
      "\n進み具合を保存しました: attn lesson %s でここから再開できます。\n",
      "\n进度已保存：attn lesson %s 会从这里继续。\n"}},
    {{"(You finished this lesson before: it starts again at step 1; attn lesson lists the others.)\n",
      "(このレッスンは前に終えています: ステップ 1 からもう一度始めます。attn lesson でほかのレッスンを表示)\n",
      "（这一课你以前学完了：从第 1 步重新开始；attn lesson 列出其他课程）\n"}},
    {{"(this is the first step: it starts again)\n",
      "(これが最初のステップです: もう一度始めます)\n",
      "（这已经是第一步：重新开始）\n"}},
    {{"Next: attn teach %d\n", "次は attn teach %d\n", "下一课：attn teach %d\n"}},
    {{"(press Enter again to see the answer)\n",
      "(もう一度 Enter を押すと答えを表示します)\n",
      "（再按一次 Enter 显示答案）\n"}},
    {{"(the lesson is over: what you type still runs; quit ends the class)\n",
      "(レッスンは終わりました: 入力した文はまだ実行されます。quit で授業を終えます)\n",
      "（课程已结束：输入的语句仍会运行；输入 quit 结束这堂课）\n"}},
    {{"\nProgress could not be saved (see the message above).\n",
      "\n進み具合を保存できませんでした (上のメッセージを参照)。\n",
      "\n无法保存进度（见上面的消息）。\n"}},
    {{"\nLesson complete: %s.\n",
      "\nレッスン完了: %s。\n",
      "\n课程完成：%s。\n"}},
    {{"Next: attn lesson %d\n",
      "次は attn lesson %d\n",
      "下一课：attn lesson %d\n"}},
    {{"Next: lesson %d\n",
      "次は lesson %d\n",
      "下一课：lesson %d\n"}},
    {{"\nProgress saved: lesson %s resumes here.\n",
      "\n進み具合を保存しました: lesson %s でここから再開できます。\n",
      "\n进度已保存：lesson %s 会从这里继续。\n"}},
    {{"(the lesson's variables are still defined: what you type runs as at the prompt; quit goes back to "
      "your own session)\n",
      "(レッスンの変数はまだ定義されています: 入力した文はプロンプトと同じように実行されます。quit で"
      "自分のセッションに戻ります)\n",
      "（课程的变量仍然有定义：输入的语句像在提示符下一样运行；输入 quit 回到"
      "你自己的会话）\n"}},
    {{"(the lesson's variables are still defined: what you type runs as at the prompt; quit or "
      "Ctrl-D leaves)\n",
      "(レッスンの変数はまだ定義されています: 入力した文はプロンプトと同じように実行されます。quit か "
      "Ctrl-D で終了します)\n",
      "（课程的变量仍然有定义：输入的语句像在提示符下一样运行；输入 quit 或按 "
      "Ctrl-D 退出）\n"}},
    {{"That was the last lesson.\n",
      "これが最後のレッスンでした。\n",
      "这是最后一课。\n"}},
    {{"Lessons (attn lesson N starts or resumes one):\n",
      "レッスン一覧 (attn lesson N で開始または再開):\n",
      "课程列表（attn lesson N 开始或继续某一课）：\n"}},
    {{"Step %d of %d: %s", "ステップ %d/%d: %s", "第 %d 步（共 %d 步）：%s"}},
    {{"\n== Step %d of %d: %s  [%s] ==\n",
      "\n== ステップ %d/%d: %s  [%s] ==\n",
      "\n== 第 %d 步（共 %d 步）：%s  [%s] ==\n"}},
    {{"no step '%s' (type steps to list them)\n",
      "ステップ '%s' はありません (steps で一覧を表示)\n",
      "没有步骤 '%s'（输入 steps 列出所有步骤）\n"}},
    {{"Teaching: Enter runs the next statement; anything else you type runs as a detour.\n",
      "授業: Enter で次の文を実行します。それ以外の入力は寄り道として実行されます。\n",
      "授课：按 Enter 运行下一条语句；输入的其他内容作为题外尝试运行。\n"}},
    {{"In a lesson: type the statement shown (or press Enter to run it), or any other statement to try something.\n",
      "レッスン中: 示された文を入力する (または Enter で実行する) か、試したい別の文を入力してください。\n",
      "在课程中：输入显示的语句（或按 Enter 运行它），也可以输入任何其他语句来试一试。\n"}},
    {{"  hint      a hint for the current question\n"
      "  solution  show and run the answer\n"
      "  skip      run this statement or answer, and go on\n"
      "  next      go on to the next step\n"
      "  back      go back one step\n"
      "  jump ID   go to a step, by id or number (steps lists them)\n"
      "  restart   this step again from its start\n"
      "  steps     list the steps\n"
      "  quit      leave (progress is saved; Ctrl-D too)\n",
      "  hint      今の問題のヒント\n"
      "  solution  答えを表示して実行\n"
      "  skip      この文か答えを実行して先へ\n"
      "  next      次のステップへ\n"
      "  back      1つ前のステップへ\n"
      "  jump ID   ステップへ移動。ID か番号で (steps で一覧)\n"
      "  restart   このステップを最初から\n"
      "  steps     ステップの一覧\n"
      "  quit      終了 (進み具合は保存されます。Ctrl-D でも)\n",
      "  hint      当前问题的提示\n"
      "  solution  显示并运行答案\n"
      "  skip      运行这条语句或答案，然后继续\n"
      "  next      进入下一步\n"
      "  back      回到上一步\n"
      "  jump ID   跳到某一步，按 id 或编号（steps 列出所有步骤）\n"
      "  restart   从头重做这一步\n"
      "  steps     列出所有步骤\n"
      "  quit      离开（进度会保存；Ctrl-D 也可以）\n"}},
    {{"(from %s)\n", "(%s から)\n", "（来自 %s）\n"}},
    {{"(jump needs a step: jump 3, or jump and a step's id; type steps to list them)\n",
      "(jump にはステップを付けてください: jump 3、または jump とステップの ID。steps で一覧を表示します)\n",
      "（jump 需要指定一步：jump 3，或 jump 加上步骤的 id；输入 steps 列出所有步骤）\n"}},
    {{"done", "完了", "已完成"}},
    {{"started", "途中", "进行中"}},
    {{"%d/%d steps", "%d/%d ステップ", "%d/%d 步"}},
    {{"(stuck? type hint)\n",
      "(困ったら hint と入力してください)\n",
      "（卡住了？输入 hint）\n"}},
    {{"(the lesson's own answer fails here: %s; type skip)\n",
      "(このレッスン自身の答えがここで失敗します: %s。skip と入力してください)\n",
      "（本课自带的答案在这里出错：%s；请输入 skip）\n"}},

    /* feedback on answers (src/lesson/messages.c): pieces that lesson.c puts together, e.g.
     * "Not yet: " + "your answer is a 3×4 tensor, expected a 4×4 tensor" */
    {{"your answer", "あなたの答え", "你的答案"}},
    {{"%s is %s, expected %s", "%s は %s ですが、正しくは %s です", "%s 是 %s，应为 %s"}},
    {{"%s has the right shape, but %lld of its %lld values differ: at %s it holds %s, expected %s",
      "%s の形は合っていますが、%lld 個の値 (全 %lld 個中) が違います: %s の値は %s、正しくは %s",
      "%s 的形状正确，但有 %lld 个值（共 %lld 个）不同：%s 处是 %s，应为 %s"}},
    {{"%s has the right shape, but every value differs: at %s it holds %s, expected %s",
      "%s の形は合っていますが、すべての値が違います: %s の値は %s、正しくは %s",
      "%s 的形状正确，但所有值都不同：%s 处是 %s，应为 %s"}},
    {{"%s is %s", "%s は %s です", "%s 是 %s"}},
    {{"%s has %lld items, expected %lld", "%s の要素は %lld 個ですが、正しくは %lld 個です", "%s 有 %lld 个元素，应为 %lld 个"}},
    {{"%s has 1 item, expected %lld", "%s の要素は 1 個ですが、正しくは %lld 個です", "%s 有 1 个元素，应为 %lld 个"}},
    {{"%s holds the right values, but as %s: the question asks for booleans (torch.bool)",
      "%s の値は合っていますが %s です: 問題が求めているのはブール値 (torch.bool) です",
      "%s 的数值是对的，但类型是 %s：问题要求的是布尔值（torch.bool）"}},
    {{"(not graded: a tuple of values side by side, such as a check of your work; the answer is %s: "
      "type it as a list [...] or a tensor)",
      "(採点しません: 値を並べたタプル、たとえば自分の計算の確かめです。答えは %s です: "
      "リスト [...] かテンソルとして入力してください)",
      "（不评分：这是并排放着的值组成的元组，例如对自己计算的检验；答案是 %s："
      "请以列表 [...] 或张量的形式输入）"}},
    {{"that reads %s, and the question asks you to work it out without it",
      "それは %s を読んでいますが、問題はそれを使わずに求めるよう求めています",
      "那读取了 %s，而问题要求不用它来算出答案"}},
    {{"that changed %s in place (the function writes into the tensor it is given, as the lesson showed): %s is put "
      "back as it was; pass a copy, %s.clone()",
      "それは %s をその場で書き換えました (レッスンで見たとおり、この関数は渡されたテンソルに書き込みます): %s は"
      "元に戻しました。コピー %s.clone() を渡してください",
      "那就地修改了 %s（正如课程所示，这个函数会写入传给它的张量）：%s 已恢复原样；"
      "请传入一个副本 %s.clone()"}},
    {{"that is the lesson's answer, but worked on %s as a detour changed it since the question was asked: type "
      "restart to run this step again with the lesson's values",
      "それはレッスンの答えですが、問題が出されてから寄り道で変わった %s で計算されています: restart と入力すると、"
      "レッスンの値でこのステップをやり直します",
      "那是课程的答案，但用的是提问之后被题外尝试改变了的 %s：输入 restart，用课程的值重新运行这一步"}},
    {{"(not graded: %s holds the right value, but the question asks you to name it %s: type %s = %s)",
      "(採点しません: %s の値は合っていますが、問題は %s と名付けるよう求めています: %s = %s と入力してください)",
      "（不评分：%s 的值是对的，但问题要求把它命名为 %s：请输入 %s = %s）"}},
    {{"(not graded: the answer is %s, and this is %s)",
      "(採点しません: 答えは %s ですが、これは %s です)",
      "（不评分：答案应是 %s，而这是 %s）"}},
    {{"that statement has no value to check (type an expression, or an assignment)",
      "その文には確かめる値がありません (式か代入を入力してください)",
      "这条语句没有可检查的值（请输入表达式或赋值）"}},
    {{"a single number", "1つの数", "单个数"}},
    {{"a tensor of %lld numbers", "%lld 個の数のテンソル", "含 %lld 个数的张量"}},
    {{"a tensor of 1 number", "1 個の数のテンソル", "含 1 个数的张量"}},
    {{"a %s tensor", "形が %s のテンソル", "形状为 %s 的张量"}},
    {{"an empty %s tensor", "形が %s の空のテンソル", "形状为 %s 的空张量"}},
    {{"a %s of %lld items", "%s (要素 %lld 個)", "%s（%lld 个元素）"}},
    {{"a %s of 1 item", "%s (要素 1 個)", "%s（1 个元素）"}},
    {{"a torch.Size of %lld dimensions", "%lld 次元の torch.Size", "%lld 维的 torch.Size"}},
    {{"a torch.Size of 1 dimension", "1 次元の torch.Size", "1 维的 torch.Size"}},
    {{"a string", "文字列", "字符串"}},
    {{"True or False", "True か False", "True 或 False"}},
    {{"a value of type %s", "%s 型の値", "%s 类型的值"}},
    {{"(row %lld, column %lld)", "(行 %lld、列 %lld)", "（行 %lld，列 %lld）"}},
    {{"an assignment to %s", "%s への代入", "对 %s 的赋值"}},
    {{"an expression with a value like the answer's", "答えと同じ種類の値を持つ式", "值与答案同类的表达式"}},
    /* help (src/builtins/help.c); the help texts of the chapter's functions are in i18n_help.c */
    {{"attn: type Python/PyTorch lines as in the book. As in PyTorch, a function is\n"
      "called through its module: torch.zeros, nn.Linear, d2l.masked_softmax.\n"
      "  help NAME      explains one function, e.g. help masked_softmax\n"
      "  lesson         lists the lessons; lesson N starts one\n"
      "  Ctrl-D or quit() leaves; history and tab completion are on at a terminal.\n\n"
      "From the chapter (d2l §11.3, §11.5, §11.6):\n",
      "attn: 本と同じように Python/PyTorch の行を入力してください。関数は PyTorch と\n"
      "同じくモジュール名を付けて呼びます: torch.zeros、nn.Linear、d2l.masked_softmax\n"
      "  help NAME      関数を1つ説明します。例: help masked_softmax\n"
      "  lesson         レッスンの一覧。lesson N でレッスン N を始めます\n"
      "  Ctrl-D か quit() で終了。端末では履歴とタブ補完が使えます。\n\n"
      "この章の関数 (d2l §11.3, §11.5, §11.6):\n",
      "attn：像书中那样输入 Python/PyTorch 代码。与 PyTorch 一样，函数带上所在模块的\n"
      "前缀：torch.zeros、nn.Linear、d2l.masked_softmax。\n"
      "  help NAME      解释一个函数，例如 help masked_softmax\n"
      "  lesson         列出课程；lesson N 开始第 N 课\n"
      "  Ctrl-D 或 quit() 退出；在终端中可使用历史记录和 Tab 补全。\n\n"
      "本章的函数（d2l §11.3、§11.5、§11.6）：\n"}},
    {{"\nMore, by module: help torch, help nn, help F (torch.nn.functional), help d2l,\n"
      "help math, help python (print, len ... and exceptions), help attn (its tools),\n"
      "help Tensor (what a tensor X offers); dir() lists the names you defined.\n",
      "\nモジュールごとの一覧: help torch、help nn、help F (torch.nn.functional)、\n"
      "help d2l、help math、help python (print、len ... と例外)、help attn (ツール)、\n"
      "help Tensor (テンソル X の属性とメソッド)。dir() は自分で定義した名前を表示。\n",
      "\n按模块列出：help torch、help nn、help F（torch.nn.functional）、help d2l、\n"
      "help math、help python（print、len …… 和异常）、help attn（attn 的工具）、\n"
      "help Tensor（张量 X 的属性和方法）；dir() 列出你定义的名字。\n"}},
    {{"What %s offers, as you type it (help NAME explains one):\n",
      "%s にあるもの(入力するときの名前で。help NAME で1つを説明します):\n",
      "%s 提供的名字（按输入时的写法；help NAME 解释其中一个）：\n"}},
    {{"attn's own tools, typed without a module (help NAME explains one):\n",
      "attn 独自のツール(モジュール名なしで入力します。help NAME で1つを説明します):\n",
      "attn 自己的工具（输入时不带模块名；help NAME 解释其中一个）：\n"}},
    {{"Python's built-in functions and exceptions (help NAME explains one):\n",
      "Python の組み込み関数と例外(help NAME で1つを説明します):\n",
      "Python 的内置函数和异常（help NAME 解释其中一个）：\n"}},
    {{"What a tensor X offers (help X.NAME explains a method):\n",
      "テンソル X の属性とメソッド(help X.NAME でメソッドを1つ説明します):\n",
      "张量 X 的属性和方法（help X.NAME 解释其中一个方法）：\n"}},
    {{"  (none of its names is in attn)\n", "  (attn にはこのモジュールの名前がありません)\n", "  （attn 中没有这个模块的名字）\n"}},
    {{"  Methods defined here:\n", "  ここで定義されたメソッド:\n", "  这里定义的方法：\n"}},
    {{"  Also a method: X.%s(...)\n", "  メソッドとしても使えます: X.%s(...)\n", "  也可作为方法使用：X.%s(...)\n"}},
    /* finding lessons (src/lesson/runner.c, translation.c) */
    {{"attn: no lesson '%s' (attn lesson lists them)\n",
      "attn: レッスン '%s' はありません (attn lesson で一覧を表示)\n",
      "attn：没有课程 '%s'（attn lesson 列出所有课程）\n"}},
    {{"attn: no lessons found (looked in $ATTN_LESSONS and the installed share/attn/lessons)\n",
      "attn: レッスンが見つかりません ($ATTN_LESSONS とインストール先の share/attn/lessons を探しました)\n",
      "attn：找不到课程（查找了 $ATTN_LESSONS 和安装位置的 share/attn/lessons）\n"}},
    {{"  %d  (cannot read: %s)\n", "  %d  (読めません: %s)\n", "  %d  （无法读取：%s）\n"}},
    {{"attn: %s does not match %s: showing the English lesson.\n%s",
      "attn: %s は %s と一致しません: 英語のレッスンを表示します。\n%s",
      "attn：%s 与 %s 不一致：显示英文课程。\n%s"}},
};

const I18nMessage *i18n_catalogue(int *n) {
    *n = (int)(sizeof catalogue / sizeof *catalogue);
    return catalogue;
}
