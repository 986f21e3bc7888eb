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
    /* lesson runner (src/lesson/runner.c, guide_*.c) */
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
    {{"(the lesson ran `%s` (%s, line %d) unseen, to define what later steps use, and it failed:)\n",
      "(後のステップが使うものを定義するため、レッスンは `%s` (%s、%d 行目) を表示せずに実行しましたが、失敗しました:)\n",
      "（为了定义后面步骤要用的东西，课程在后台运行了 `%s`（%s，第 %d 行），但它失败了：）\n"}},
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
    {{"lesson %s, step '%s', has no question %d",
      "レッスン %s のステップ '%s' には問題 %d がありません",
      "课程 %s 的步骤 '%s' 中没有问题 %d"}},
    {{"this cell's first line names no question of a lesson (it reads %s LESSON STEP N --lang LANG, as attn notebook writes it)",
      "このセルの1行目はレッスンの問題を指していません (attn notebook が書くとおり %s LESSON STEP N --lang LANG と書きます)",
      "此单元格的第一行没有指明课程中的问题（应按 attn notebook 所写的形式：%s LESSON STEP N --lang LANG）"}},
    {{"the question number '%s' in this cell's first line is not a whole number from 1 to %d",
      "このセルの1行目の問題番号 '%s' は 1 から %d までの整数ではありません",
      "此单元格第一行的问题编号 '%s' 不是 1 到 %d 之间的整数"}},
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
      "help Tensor (what a tensor X offers), help training; dir() lists your names.\n",
      "\nモジュールごとの一覧: help torch、help nn、help F (torch.nn.functional)、\n"
      "help d2l、help math、help python (print、len ... と例外)、help attn (ツール)、\n"
      "help Tensor (テンソル X のメソッド)、help training (訓練)。dir() は自分の名前。\n",
      "\n按模块列出：help torch、help nn、help F（torch.nn.functional）、help d2l、\n"
      "help math、help python（print、len …… 和异常）、help attn（attn 的工具）、\n"
      "help Tensor（张量 X 的属性和方法）、help training（训练）；dir() 列出你的名字。\n"}},
    {{"\nTraining (§3.2): d2l.Module, d2l.DataModule and d2l.Trainer train a model, and\n"
      "d2l.ProgressBoard draws its curves as it learns; help training shows the rest.\n",
      "\n訓練 (§3.2): d2l.Module、d2l.DataModule、d2l.Trainer がモデルを訓練し、\n"
      "d2l.ProgressBoard は学習中の曲線を描きます。残りは help training にあります。\n",
      "\n训练（§3.2）：d2l.Module、d2l.DataModule 和 d2l.Trainer 训练模型，\n"
      "d2l.ProgressBoard 在模型学习时画出曲线；其余内容见 help training。\n"}},
    {{"Training, as PyTorch and the book write it (help NAME explains one):\n"
      "  autograd    torch.tensor(..., requires_grad=True), loss.backward(), X.grad,\n"
      "              torch.no_grad(), X.detach(), torch.autograd.grad\n"
      "  models      nn.Module with nn.Parameter and layers (help nn): parameters()\n"
      "              require grad; model.train() and model.eval() switch dropout\n"
      "  losses      F.cross_entropy, F.mse_loss, nn.CrossEntropyLoss, nn.MSELoss\n"
      "  optimizers  torch.optim.SGD, torch.optim.Adam, torch.optim.AdamW; a step is\n"
      "              loss.backward(); opt.step(); opt.zero_grad()\n"
      "  data        torch.utils.data.TensorDataset, torch.utils.data.DataLoader\n"
      "  the book    d2l.Module, d2l.DataModule, d2l.Trainer (fit), and\n"
      "              d2l.ProgressBoard, whose curves are drawn as the model learns\n"
      "  lesson 7    trains a self-attention model with and without positions\n",
      "訓練。PyTorch と本の書き方で (help NAME で1つを説明します):\n"
      "  自動微分    torch.tensor(..., requires_grad=True)、loss.backward()、X.grad、\n"
      "              torch.no_grad()、X.detach()、torch.autograd.grad\n"
      "  モデル      nn.Parameter と層 (help nn) を持つ nn.Module。parameters() は\n"
      "              勾配を求め、model.train() と model.eval() が dropout を切り替える\n"
      "  損失        F.cross_entropy、F.mse_loss、nn.CrossEntropyLoss、nn.MSELoss\n"
      "  最適化      torch.optim.SGD、torch.optim.Adam、torch.optim.AdamW。1ステップは\n"
      "              loss.backward(); opt.step(); opt.zero_grad()\n"
      "  データ      torch.utils.data.TensorDataset、torch.utils.data.DataLoader\n"
      "  本          d2l.Module、d2l.DataModule、d2l.Trainer (fit)、そして\n"
      "              d2l.ProgressBoard。曲線はモデルが学ぶにつれて描かれる\n"
      "  レッスン 7  位置なしと位置ありの自己注意モデルを訓練する\n",
      "训练，按 PyTorch 和书中的写法（help NAME 解释其中一个）：\n"
      "  自动微分    torch.tensor(..., requires_grad=True)、loss.backward()、X.grad、\n"
      "              torch.no_grad()、X.detach()、torch.autograd.grad\n"
      "  模型        带 nn.Parameter 和层（help nn）的 nn.Module：parameters() 需要\n"
      "              梯度；model.train() 和 model.eval() 切换 dropout\n"
      "  损失        F.cross_entropy、F.mse_loss、nn.CrossEntropyLoss、nn.MSELoss\n"
      "  优化器      torch.optim.SGD、torch.optim.Adam、torch.optim.AdamW；一步是\n"
      "              loss.backward(); opt.step(); opt.zero_grad()\n"
      "  数据        torch.utils.data.TensorDataset、torch.utils.data.DataLoader\n"
      "  本书        d2l.Module、d2l.DataModule、d2l.Trainer（fit），以及\n"
      "              d2l.ProgressBoard，它的曲线随模型学习而画出\n"
      "  第 7 课     训练有位置和没有位置的自注意力模型\n"}},
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
    /* finding lessons (src/lesson/list.c, translation.c) */
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
    /* the chapter's tools (src/builtins/d2l_relative.c, d2l_complexity.c, d2l_after.c): their prose in the
     * reader's language; numbers, formulas and code as in English, each number in the same order (a lesson's
     * translation records these outputs: lesson_same_but_prose compares them with the English) */
    {{"Positions 0..%lld in binary beside the rows of P for d = %lld (§11.6.3.1):\n"
      "the lowest bit flips every row, the next every 2 rows, then every 4, ...\n",
      "位置 0..%lld の2進表現を、d = %lld の P の行と並べます (§11.6.3.1):\n"
      "最下位ビットは毎行、次のビットは 2 行ごと、その次は 4 行ごとに反転します ...\n",
      "位置 0..%lld 的二进制表示，与 d = %lld 时 P 的各行并排（§11.6.3.1）：\n"
      "最低位每行翻转一次，下一位每 2 行翻转一次，再下一位每 4 行，……\n"}},
    {{"(the sine columns 0, 2, 4, ... only, to fit the screen)\n",
      "(画面に収めるため、正弦の列 0, 2, 4, ... だけを示します)\n",
      "（为了放进屏幕，只显示正弦列 0, 2, 4, ...）\n"}},
    {{"binary",
      "2進",
      "二进制"}},
    {{"The bits change more slowly from right to left, the columns of P from left to\n"
      "right: the pair of columns 2j, 2j+1 turns by omega_j = 1/10000^(2j/d) radians\n"
      "per position.\n",
      "ビットは右から左へ、P の列は左から右へ進むほどゆっくり変化します:\n"
      "列 2j, 2j+1 の組は、位置が1つ進むごとに omega_j = 1/10000^(2j/d) ラジアン\n"
      "回転します。\n",
      "二进制位从右往左变化越来越慢，P 的各列则从左往右越来越慢：\n"
      "第 2j, 2j+1 列这一对每前进一个位置就旋转 omega_j = 1/10000^(2j/d) 弧度。\n"}},
    {{"delta = %lld: R turns every pair by delta*omega = %.6g rad\n",
      "delta = %lld: R はどの組も delta*omega = %.6g rad 回転させます\n",
      "delta = %lld：R 把每一对都旋转 delta*omega = %.6g rad\n"}},
    {{"R @ (p[i,%lld], p[i,%lld]) against (p[%s,%lld], p[%s,%lld])",
      "R @ (p[i,%lld], p[i,%lld]) と (p[%s,%lld], p[%s,%lld]) の比較",
      "R @ (p[i,%lld], p[i,%lld]) 与 (p[%s,%lld], p[%s,%lld]) 的比较"}},
    {{"%s%sfor i = %lld..%lld:\n",
      "%s%s(i = %lld..%lld):\n",
      "%s%s（i = %lld..%lld）：\n"}},
    {{"  largest difference %.1e in float64 (rounding: exact arithmetic gives 0),\n",
      "  最大の差は %.1e (float64。丸め誤差で、厳密な計算なら 0)、\n",
      "  最大差值 %.1e（float64；这是舍入误差，精确计算得 0），\n"}},
    {{"  %.1e on the float32 table P of PositionalEncoding(%lld, 0).\n",
      "  %.1e (float32 の表 P、PositionalEncoding(%lld, 0) で)。\n",
      "  %.1e（在 float32 的表 P 上，即 PositionalEncoding(%lld, 0)）。\n"}},
    {{"The same R works at every position: it depends on delta and j, never on i.\n",
      "同じ R がどの位置でも成り立ちます: delta と j だけで決まり、i にはよりません。\n",
      "同一个 R 在每个位置都成立：它只取决于 delta 和 j，与 i 无关。\n"}},
    {{"CNN vs RNN vs self-attention, n = %lld, d = %lld, k = %lld (§11.6.2)\n"
      "\n",
      "CNN、RNN、自己注意の比較、n = %lld, d = %lld, k = %lld (§11.6.2)\n"
      "\n",
      "CNN、RNN 与自注意力的比较，n = %lld, d = %lld, k = %lld（§11.6.2）\n"
      "\n"}},
    {{"computational complexity",
      "計算量",
      "计算复杂度"}},
    {{"sequential ops",
      "逐次演算",
      "顺序操作"}},
    {{"maximum path length",
      "最大経路長",
      "最大路径长度"}},
    {{"self-attention",
      "自己注意",
      "自注意力"}},
    {{"the RNN",
      "RNN",
      "RNN"}},
    {{"the CNN",
      "CNN",
      "CNN"}},
    {{"Cheapest per layer: %s.\n",
      "層あたりの計算量が最も少ないもの: %s。\n",
      "每层计算量最少的是：%s。\n"}},
    {{"Self-attention costs less than the RNN: n < d (%lld < %lld), so n²d < nd².\n",
      "自己注意の計算量は RNN より少なくなります: n < d (%lld < %lld) なので n²d < nd²。\n",
      "自注意力的计算量少于 RNN：n < d（%lld < %lld），所以 n²d < nd²。\n"}},
    {{"Self-attention and the RNN cost the same: n = d = %lld, so n²d = nd².\n",
      "自己注意と RNN の計算量は同じです: n = d = %lld なので n²d = nd²。\n",
      "自注意力与 RNN 的计算量相同：n = d = %lld，所以 n²d = nd²。\n"}},
    {{"Self-attention costs more than the RNN: n > d (%lld > %lld), so n²d > nd².\n",
      "自己注意の計算量は RNN より多くなります: n > d (%lld > %lld) なので n²d > nd²。\n",
      "自注意力的计算量多于 RNN：n > d（%lld > %lld），所以 n²d > nd²。\n"}},
    {{"CNN path from x1 to x%lld:\n",
      "x1 から x%lld までの CNN の経路:\n",
      "CNN 中从 x1 到 x%lld 的路径：\n"}},
    {{"  contiguous kernels: ceil((n-1)/(k-1)) = %lld %s",
      "  連続したカーネル: ceil((n-1)/(k-1)) = %lld %s",
      "  连续的卷积核：ceil((n-1)/(k-1)) = %lld %s"}},
    {{" (graph: %lld)",
      " (グラフ上: %lld)",
      "（图上：%lld）"}},
    {{"  dilated (1, k, k², ...): ceil(log_k n) = %lld %s",
      "  膨張畳み込み (1, k, k², ...): ceil(log_k n) = %lld %s",
      "  空洞卷积 (1, k, k², ...)：ceil(log_k n) = %lld %s"}},
    {{"layer",
      "層",
      "层"}},
    {{"layers",
      "層",
      "层"}},
    {{"step",
      "ステップ",
      "步"}},
    {{"steps",
      "ステップ",
      "步"}},
    {{"run",
      "回",
      "次"}},
    {{"runs",
      "回",
      "次"}},
    {{"Inputs reaching each output after %lld %s of kernel %lld (same padding), n = %lld:\n",
      "%lld %sの畳み込み (カーネル %lld、same パディング) の後で\n"
      "各出力に届く入力、n = %lld:\n",
      "经过 %lld %s卷积（卷积核 %lld，same 填充）后到达每个输出的输入，n = %lld：\n"}},
    {{"(dilated: dilation 1, k, k², ... at layers 1, 2, 3, ...)\n",
      "(膨張: 膨張率 1, k, k², ... を層 1, 2, 3, ... に)\n",
      "（空洞：扩张率 1, k, k², ... 依次用于第 1, 2, 3, ... 层）\n"}},
    {{"  <- x1 and x%lld meet here",
      "  <- ここで x1 と x%lld が出会う",
      "  <- x1 与 x%lld 在此相遇"}},
    {{"Measured here: one layer of each, d = %lld, k = %lld, one thread's CPU time,\n"
      "the fastest of %lld %s (§11.6.2)\n",
      "この計算機で測定: 各種類の層を1つずつ、d = %lld, k = %lld、1スレッドの CPU 時間、\n"
      "%lld %sのうち最速 (§11.6.2)\n",
      "在本机上测量：每种层各一层，d = %lld, k = %lld，单线程的 CPU 时间，\n"
      "取 %lld %s中最快的一次（§11.6.2）\n"}},
    {{"self-attention (s)",
      "自己注意 (s)",
      "自注意力 (s)"}},
    {{"From n = %lld to %lld (%sx): conv1d took %sx as long, the RNN %sx,\n"
      "self-attention %sx. Linear cost predicts %sx, quadratic %sx.\n",
      "n = %lld から %lld へ (%s 倍): conv1d の時間は %s 倍、RNN は %s 倍、\n"
      "自己注意は %s 倍でした。線形なら %s 倍、二次なら %s 倍と予想されます。\n",
      "从 n = %lld 到 %lld（%s 倍）：conv1d 用时变为 %s 倍，RNN 为 %s 倍，\n"
      "自注意力为 %s 倍。线性代价预计 %s 倍，二次代价预计 %s 倍。\n"}},
    {{"Log-log slopes (time ~ n^slope), fitted for n >= %lld: conv1d %.2f, RNN %.2f,\n"
      "self-attention %.2f.\n",
      "両対数の傾き (時間 ~ n^傾き)、n >= %lld で当てはめ: conv1d %.2f、RNN %.2f、\n"
      "自己注意 %.2f。\n",
      "双对数斜率（时间 ~ n^斜率），对 n >= %lld 拟合：conv1d %.2f，RNN %.2f，\n"
      "自注意力 %.2f。\n"}},
    {{"Self-attention's slope is the largest and near 2: its time grows as n², as its\n"
      "n²d operations predict.\n",
      "自己注意の傾きが最も大きく、2 に近い値です: n²d 回の演算から予想されるとおり、\n"
      "時間は n² に比例して増えます。\n",
      "自注意力的斜率最大，且接近 2：正如 n²d 次运算所预计的，\n"
      "它的时间按 n² 增长。\n"}},
    {{"Self-attention's slope is the largest, but %.2f is below the 2 that its n²d\n"
      "operations predict: at these n, costs that grow more slowly still weigh on its\n"
      "time (or the machine was busy). Try larger ns, or repeats=7.\n",
      "自己注意の傾きが最も大きいものの、%.2f は n²d 回の演算から予想される 2 より\n"
      "小さい値です: この n では、よりゆっくり増えるコストがまだ時間に効いています\n"
      "(または計算機が混んでいました)。大きな ns か repeats=7 を試してください。\n",
      "自注意力的斜率最大，但 %.2f 低于其 n²d 次运算所预计的 2：在这些 n 下，\n"
      "增长较慢的开销仍影响着它的时间（或机器当时很忙）。试试更大的 ns 或 repeats=7。\n"}},
    {{"Self-attention's slope is the largest, and %.2f is above the 2 that its n²d\n"
      "operations predict: at the larger n its n×n scores no longer fit in the\n"
      "processor's caches (or the machine was busy).\n",
      "自己注意の傾きが最も大きく、%.2f は n²d 回の演算から予想される 2 より\n"
      "大きい値です: n が大きいと n×n のスコアがプロセッサのキャッシュに\n"
      "収まらなくなります (あるいは計算機が混んでいました)。\n",
      "自注意力的斜率最大，且 %.2f 高于其 n²d 次运算所预计的 2：n 较大时，\n"
      "n×n 的分数放不进处理器的缓存（或者机器当时很忙）。\n"}},
    {{"Self-attention's slope is not the largest here: at these sizes other costs hide\n"
      "its n²d operations (or the machine was busy). Try larger ns, or repeats=7.\n",
      "ここでは自己注意の傾きは最大ではありません: この大きさでは他のコストが n²d 回の\n"
      "演算を覆い隠しています (あるいは計算機が混んでいました)。もっと大きな ns か\n"
      "repeats=7 を試してください。\n",
      "这里自注意力的斜率不是最大的：在这些规模下，其他开销掩盖了它的 n²d 次运算\n"
      "（或者机器当时很忙）。试试更大的 ns，或 repeats=7。\n"}},
    {{"Self-attention was slower than the RNN at every n measured.\n",
      "測定したどの n でも、自己注意は RNN より遅くなりました。\n",
      "在测量的每个 n 上，自注意力都比 RNN 慢。\n"}},
    {{"Self-attention was faster than the RNN at every n measured.\n",
      "測定したどの n でも、自己注意は RNN より速くなりました。\n",
      "在测量的每个 n 上，自注意力都比 RNN 快。\n"}},
    {{"Self-attention was slower than the RNN up to n = %lld and faster from n = %lld.\n",
      "自己注意は n = %lld までは RNN より遅く、n = %lld からは速くなりました。\n",
      "自注意力直到 n = %lld 都比 RNN 慢，从 n = %lld 起比 RNN 快。\n"}},
    {{"Self-attention was faster than the RNN up to n = %lld and slower from n = %lld.\n",
      "自己注意は n = %lld までは RNN より速く、n = %lld からは遅くなりました。\n",
      "自注意力直到 n = %lld 都比 RNN 快，从 n = %lld 起比 RNN 慢。\n"}},
    {{"Self-attention and the RNN swapped places more than once: their times are close\n"
      "here, or the measurement is noisy.\n",
      "自己注意と RNN の順位は何度も入れ替わりました: ここでは時間が近いか、\n"
      "測定のばらつきが大きいのです。\n",
      "自注意力与 RNN 的快慢不止一次互换：这里它们的时间很接近，\n"
      "或者测量噪声较大。\n"}},
    {{"Counting operations (n²d against nd²), self-attention overtakes the RNN at\n"
      "n = d = %lld",
      "演算の回数 (n²d 対 nd²) で数えると、自己注意の計算量が RNN を上回るのは\n"
      "n = d = %lld です",
      "按运算次数（n²d 对 nd²）计，自注意力在\n"
      "n = d = %lld 时超过 RNN"}},
    {{". Measured, it did so later: the RNN's n steps run one after\n"
      "another as small vector-by-matrix products, which use this one core less\n"
      "well than self-attention's few large matrix products.\n",
      "。測定では、上回ったのはもっと後でした:\n"
      "RNN の n ステップは小さなベクトルと行列の積として1つずつ順に実行され、\n"
      "自己注意の少数の大きな行列積ほどこの1コアを有効に使えないのです。\n",
      "。实测中，它超过得更晚：\n"
      "RNN 的 n 步依次执行，每步只是小的向量乘矩阵，\n"
      "不如自注意力少数几个大矩阵乘法那样充分利用这一个核心。\n"}},
    {{". Measured, not even at n = %lld: the RNN's n steps run one\n"
      "after another as small vector-by-matrix products, which use this one core\n"
      "less well than self-attention's few large matrix products.\n",
      "。測定では、n = %lld でもまだ上回りませんでした:\n"
      "RNN の n ステップは小さなベクトルと行列の積として1つずつ順に実行され、\n"
      "自己注意の少数の大きな行列積ほどこの1コアを有効に使えないのです。\n",
      "。实测中，直到 n = %lld 也没有超过：\n"
      "RNN 的 n 步依次执行，每步只是小的向量乘矩阵，\n"
      "不如自注意力少数几个大矩阵乘法那样充分利用这一个核心。\n"}},
    {{". Measured, it was slower already at n = %lld.\n",
      "。測定では、n = %lld ですでに遅くなっていました。\n",
      "。实测中，在 n = %lld 时它就已经更慢了。\n"}},
    {{", and the measured crossing,\n"
      "between n = %lld and %lld, agrees.\n",
      "。測定での交差も\n"
      "n = %lld と %lld の間で、これと一致します。\n",
      "，实测的交叉点\n"
      "在 n = %lld 与 %lld 之间，与此一致。\n"}},
    {{".\n",
      "。\n",
      "。\n"}},
    {{"Training a one-layer self-attention model (lesson 7's) with a learned\n"
      "(1, %lld, %lld) table of positions on a task where order decides: output the\n"
      "token k = %d places earlier, in sequences of n = %lld out of %d tokens;\n"
      "Adam, lr = %g, batches of %d (§11.6.5, exercise 2)\n",
      "単層の自己注意モデル (レッスン 7 のもの) を、学習可能な (1, %lld, %lld) の\n"
      "位置の表とともに、順序が答えを決めるタスクで訓練します: k = %d 個前の\n"
      "トークンを出力する。系列は n = %lld 個 (%d 個のトークンから)。\n"
      "Adam、lr = %g、バッチは %d 個 (§11.6.5、演習 2)\n",
      "训练一个单层自注意力模型（第 7 课的模型），带一个可学习的 (1, %lld, %lld)\n"
      "位置表，任务由顺序决定答案：输出 k = %d 个位置之前的词元，序列为\n"
      "n = %lld 个词元，取自 %d 个；Adam，lr = %g，批量 %d（§11.6.5，练习 2）\n"}},
    {{"  step %5lld  loss %.2f\n",
      "  ステップ %5lld  損失 %.2f\n",
      "  第 %5lld 步  损失 %.2f\n"}},
    {{"After %lld %s the loss is %.2f; on %d new sequences of %lld the accuracy\n"
      "is %.2f (chance without positions: 1/%lld = %.2f).\n",
      "%lld %sの後、損失は %.2f。新しい系列 %d 個 (長さ %lld) での正解率は\n"
      "%.2f (位置なしの当て推量: 1/%lld = %.2f)。\n",
      "经过 %lld %s后，损失为 %.2f；在 %d 个长度为 %lld 的新序列上，准确率为\n"
      "%.2f（没有位置时的随机猜测：1/%lld = %.2f）。\n"}},
    {{"Untrained, on %d new sequences of %lld the accuracy is %.2f.\n",
      "訓練なしで、新しい系列 %d 個 (長さ %lld) での正解率は %.2f。\n",
      "未经训练，在 %d 个长度为 %lld 的新序列上，准确率为 %.2f。\n"}},
    {{"Training changed %lld of the table's %lld rows.\n",
      "訓練で変わった行は %lld 行 (表の全 %lld 行のうち)。\n",
      "训练改变了表中 %lld 行（共 %lld 行）。\n"}},
    {{"Rows %lld..%lld, positions no training sequence reached, are exactly as they\n"
      "started: the table knows nothing of position %lld or later.\n",
      "行 %lld..%lld (どの訓練系列も届かなかった位置) は最初のままです:\n"
      "表は位置 %lld 以降について何も知りません。\n",
      "第 %lld..%lld 行（没有任何训练序列到达的位置）与开始时完全一样：\n"
      "这张表对位置 %lld 及以后一无所知。\n"}},
    {{"%lld self-attention layers, d = %lld, %lld heads, with residual connections\n",
      "自己注意の層 %lld 個、d = %lld、ヘッド %lld 個、残差接続あり\n",
      "%lld 个自注意力层，d = %lld，%lld 个头，带残差连接\n"}},
    {{"%lld self-attention layers, d = %lld, %lld heads, without residual connections\n",
      "自己注意の層 %lld 個、d = %lld、ヘッド %lld 個、残差接続なし\n",
      "%lld 个自注意力层，d = %lld，%lld 个头，不带残差连接\n"}},
    {{"(§11.6.5, exercise 1)\n"
      "token similarity: mean cosine between %lld random tokens (+ P), 1 = all alike\n"
      "position signal: spread of one token repeated at %lld positions (+ P), 0 = lost\n",
      "(§11.6.5、演習 1)\n"
      "トークンの類似度: ランダムな %lld 個のトークン (+ P) の間のコサインの平均、\n"
      "    1 = すべて同じ\n"
      "位置の信号: 1つのトークンを %lld 個の位置に並べたもの (+ P) のばらつき、\n"
      "    0 = 失われた\n",
      "（§11.6.5，练习 1）\n"
      "标记相似度：%lld 个随机标记（+ P）之间余弦的平均，1 = 全都一样\n"
      "位置信号：同一个标记重复放在 %lld 个位置上（+ P）的离散程度，0 = 丢失\n"}},
    {{"token similarity",
      "トークンの類似度",
      "标记相似度"}},
    {{"position signal",
      "位置の信号",
      "位置信号"}},
    {{"After %lld %s the token similarity went from %.4f to %.4f",
      "%lld %sの後、トークンの類似度は %.4f から %.4f になりました",
      "经过 %lld %s后，标记相似度从 %.4f 变为 %.4f"}},
    {{":\n"
      "the tokens have become almost one and the same vector.\n",
      ":\n"
      "トークンはほとんど同じ1つのベクトルになりました。\n",
      "：\n"
      "这些标记几乎变成了同一个向量。\n"}},
    {{":\n"
      "the tokens grew alike.\n",
      ":\n"
      "トークンは互いに似てきました。\n",
      "：\n"
      "这些标记变得更相似了。\n"}},
    {{":\n"
      "the tokens stayed about as distinct as at the input.\n",
      ":\n"
      "トークンは入力のときと同じくらい区別されたままです。\n",
      "：\n"
      "这些标记仍和输入时差不多一样可区分。\n"}},
    {{"The position signal went from %.4f to %.4f (%.2g%% of the input's)",
      "位置の信号は %.4f から %.4f になりました (入力の %.2g%%)",
      "位置信号从 %.4f 变为 %.4f（为输入时的 %.2g%%）"}},
    {{":\n"
      "one token at different positions gives the same output: the position is lost.\n",
      ":\n"
      "同じトークンはどの位置でも同じ出力になります: 位置は失われました。\n",
      "：\n"
      "同一个标记在不同位置给出相同的输出：位置丢失了。\n"}},
    {{":\n"
      "much of the position added at the input is gone.\n",
      ":\n"
      "入力で加えた位置の多くが失われました。\n",
      "：\n"
      "输入时加入的位置信息大部分已经消失。\n"}},
    {{":\n"
      "most of the position added at the input survives.\n",
      ":\n"
      "入力で加えた位置の大部分が残っています。\n",
      "：\n"
      "输入时加入的位置信息大部分保留了下来。\n"}},
    {{":\n"
      "the position added at the input survives in full.\n",
      ":\n"
      "入力で加えた位置はすべて残っています。\n",
      "：\n"
      "输入时加入的位置信息完整地保留了下来。\n"}},
    /* the text inside the chapter tools' figures (rotation, measure_layers, stack_attention): titles, axis labels and
     * legends in the reader's language; formulas (p[i, 4] = sin(0.3162 i)) stay as they are */
    {{"unit circle",
      "単位円",
      "单位圆"}},
    {{"(p[i,%lld], p[i,%lld]) for i = 0..%lld",
      "(p[i,%lld], p[i,%lld])、i = 0..%lld",
      "(p[i,%lld], p[i,%lld])，i = 0..%lld"}},
    {{"R: pair i → pair i%+lld",
      "R: 組 i → 組 i%+lld",
      "R：第 i 对 → 第 i%+lld 对"}},
    {{"R turns each pair by δω = %.4g rad",
      "R は各組を δω = %.4g rad 回転させる",
      "R 把每一对值旋转 δω = %.4g rad"}},
    {{"%s: slope %.2f",
      "%s: 傾き %.2f",
      "%s：斜率 %.2f"}},
    {{"fitted n^slope",
      "当てはめた n^傾き",
      "拟合的 n^斜率"}},
    {{"sequence length n",
      "系列長 n",
      "序列长度 n"}},
    {{"seconds per layer",
      "1層あたりの秒数",
      "每层的秒数"}},
    {{"token similarity (mean cosine)",
      "トークンの類似度 (コサインの平均)",
      "标记相似度（余弦的平均）"}},
    {{"position signal (spread)",
      "位置の信号 (ばらつき)",
      "位置信号（离散程度）"}},
    {{"Compare with residual=True, as in the Transformer.\n",
      "Transformer と同じく residual=True にした場合と比べてみてください。\n",
      "请与 Transformer 中那样设置 residual=True 的情形比较。\n"}},
};

const I18nMessage *i18n_catalogue(int *n) {
    *n = (int)(sizeof catalogue / sizeof *catalogue);
    return catalogue;
}
