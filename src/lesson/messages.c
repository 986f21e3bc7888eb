/* messages.c - every sentence the lesson module says to a student or a lesson author, in one table (English here;
 * the Japanese and Chinese are in the i18n catalogue, found by this English text). Arguments are listed beside each id in lesson_internal.h. */
#include "lesson_internal.h"
#include "i18n.h"

static const char *const en[MSG_COUNT] = {
    [MSG_YOUR_ANSWER] = "your answer",
    [MSG_IS_KIND_EXPECTED] = "%s is %s, expected %s",
    [MSG_VALUES_DIFFER] = "%s has the right shape, but %lld of its %lld values differ: at %s it holds %s, expected %s",
    [MSG_ALL_VALUES_DIFFER] = "%s has the right shape, but every value differs: at %s it holds %s, expected %s",
    [MSG_VALUE_IS] = "%s is %s",
    [MSG_ITEMS_DIFFER] = "%s has %lld items, expected %lld",
    [MSG_ONE_ITEM_DIFFERS] = "%s has 1 item, expected %lld",
    [MSG_NOT_GRADED] = "(not graded: the answer is %s, and this is %s)",
    [MSG_NO_VALUE] = "that statement has no value to check (type an expression, or an assignment)",
    [MSG_A_SINGLE_NUMBER] = "a single number",
    [MSG_A_TENSOR_OF_N] = "a tensor of %lld numbers",
    [MSG_A_TENSOR_OF_ONE] = "a tensor of 1 number",
    [MSG_A_SHAPED_TENSOR] = "a %s tensor",
    [MSG_AN_EMPTY_TENSOR] = "an empty %s tensor",
    [MSG_A_SEQ_OF_N] = "a %s of %lld items",
    [MSG_A_SEQ_OF_ONE] = "a %s of 1 item",
    [MSG_A_SIZE_OF_N] = "a torch.Size of %lld dimensions",
    [MSG_A_SIZE_OF_ONE] = "a torch.Size of 1 dimension",
    [MSG_A_STRING] = "a string",
    [MSG_A_BOOL] = "True or False",
    [MSG_A_VALUE_OF_TYPE] = "a value of type %s",
    [MSG_POS_ROW_COL] = "(row %lld, column %lld)",
    [MSG_NOT_BOOL] = "%s holds the right values, but as %s: the question asks for booleans (torch.bool)",
    [MSG_TUPLE_CHECK] = "(not graded: a tuple of values side by side, such as a check of your work; the answer is %s: "
                        "type it as a list [...] or a tensor)",
    [MSG_FORBIDDEN] = "that reads %s, and the question asks you to work it out without it",
    [MSG_CHANGED_IN_PLACE] = "that changed %s in place (the function writes into the tensor it is given, as the lesson "
                             "showed): %s is put back as it was; pass a copy, %s.clone()",
    [MSG_RESTART] = "that is the lesson's answer, but worked on %s as a detour changed it since the question was asked: "
                    "type restart to run this step again with the lesson's values",
    [MSG_NAME_IT] = "(not graded: %s holds the right value, but the question asks you to name it %s: type %s = %s)",
    [MSG_SOUND_PREFIX] = "%s:%d: step '%s': ",
    [MSG_SOUND_MODEL_FAILS] = "the model answer '%s' fails its own check: %s",
    [MSG_SOUND_ANSWER_FAILS] = "the answer '%s' fails: %s",
    [MSG_SOUND_ACCEPT_REJECTED] = "the accepted answer '%s' is rejected: %s",
    [MSG_SOUND_WRONG_ACCEPTED] = "the wrong answer '%s' is accepted",
    [MSG_SOUND_WRONG_FAILS] = "the wrong answer '%s' does not run: %s",
    [MSG_SOUND_WRONG_NOT_ANSWER] = "the wrong answer '%s' is not taken as an answer (an answer here is %s), so a student "
                                   "typing it is never told it is wrong",
    [MSG_SOUND_TRIVIAL] = "the trivial answer '%s' is accepted: the question can be answered without the work (change "
                          "it, or write that answer: line if it really is the answer)",
    [MSG_SOUND_UNDEFINED_NAME] = "the question's text uses '%s', which the lesson has not defined at this point",
    [MSG_SOUND_ANSWER_IS_ASSIGN] = "an assignment to %s",
    [MSG_SOUND_ANSWER_IS_EXPR] = "an expression with a value like the answer's",
};

/* The text in lang (src/util/i18n_messages.c holds the translations, keyed by this English). */
const char *lesson_msg(I18nLang lang, MsgId id) { return id >= 0 && id < MSG_COUNT && en[id] ? i18n_tr(lang, en[id]) : "?"; }
