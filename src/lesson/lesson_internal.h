/* lesson_internal.h - what the files of src/lesson share inside it: the table of every message a student or a lesson
 * author reads (one place, so it can be translated), and the small helpers the parser (lesson.c), the answer checker
 * (answers.c) and the soundness check (soundness.c) have in common. */
#ifndef ATTN_LESSON_INTERNAL_H
#define ATTN_LESSON_INTERNAL_H
#include "strbuf.h"
#include "lesson.h"
#include "ast.h"

/* Message ids; lesson_msg(lang, id) is the text in lang, a printf format where the id's comment shows arguments. */
typedef enum {
    /* feedback on an answer (lesson.c) */
    MSG_YOUR_ANSWER,          /* subject for an expression answer: "your answer" */
    MSG_IS_KIND_EXPECTED,     /* %s subject, %s what it is, %s what the question asks for */
    MSG_VALUES_DIFFER,        /* %s subject, %lld differing, %lld total, %s position, %s theirs, %s expected */
    MSG_ALL_VALUES_DIFFER,    /* %s subject, %s position, %s theirs, %s expected */
    MSG_VALUE_IS,             /* %s subject, %s its value: "your answer is 0.2974" */
    MSG_ITEMS_DIFFER,         /* %s subject, %lld their items, %lld expected items */
    MSG_ONE_ITEM_DIFFERS,     /* %s subject, %lld expected items (the answer has 1) */
    MSG_NOT_GRADED,           /* %s what the question asks for, %s what this is */
    MSG_NO_VALUE,             /* an answer statement that leaves no value */
    MSG_A_SINGLE_NUMBER,
    MSG_A_TENSOR_OF_N,        /* %lld numbers in a 1-D tensor */
    MSG_A_TENSOR_OF_ONE,
    MSG_A_SHAPED_TENSOR,      /* %s shape such as 2×2×4 */
    MSG_AN_EMPTY_TENSOR,      /* %s shape */
    MSG_A_SEQ_OF_N,           /* %s list/tuple, %lld items */
    MSG_A_SEQ_OF_ONE,         /* %s list/tuple */
    MSG_A_SIZE_OF_N,          /* %lld dimensions of a torch.Size */
    MSG_A_SIZE_OF_ONE,
    MSG_A_STRING,
    MSG_A_BOOL,
    MSG_A_VALUE_OF_TYPE,      /* %s the type's name */
    MSG_POS_ROW_COL,          /* %lld row, %lld column: "[1, 2] (row 1, column 2)" */
    MSG_NOT_BOOL,             /* %s subject, %s its dtype: the right values, not booleans */
    MSG_TUPLE_CHECK,          /* %s what the answer is: a tuple side by side is a check, not graded */
    MSG_FORBIDDEN,            /* %s the forbidden name the answer reads */
    MSG_CHANGED_IN_PLACE,     /* %s name, %s name, %s name: the answer wrote into the lesson's tensor */
    MSG_RESTART,              /* %s the variable a detour changed */
    MSG_NAME_IT,              /* %s their name, %s the asked name, %s the asked name, %s their name */
    /* the soundness check (lesson.c, for lesson authors) */
    MSG_SOUND_PREFIX,         /* %s path, %d line, %s step id */
    MSG_SOUND_MODEL_FAILS,    /* %s answer, %s feedback */
    MSG_SOUND_ANSWER_FAILS,   /* %s answer, %s feedback */
    MSG_SOUND_ACCEPT_REJECTED,/* %s accept, %s feedback */
    MSG_SOUND_WRONG_ACCEPTED, /* %s wrong */
    MSG_SOUND_WRONG_FAILS,    /* %s wrong, %s error */
    MSG_SOUND_WRONG_NOT_ANSWER, /* %s wrong, %s what an answer is */
    MSG_SOUND_TRIVIAL,        /* %s trivial answer */
    MSG_SOUND_UNDEFINED_NAME, /* %s name */
    MSG_SOUND_ANSWER_IS_ASSIGN, /* %s name: "an assignment to NAME" */
    MSG_SOUND_ANSWER_IS_EXPR, /* "an expression" */
    MSG_COUNT
} MsgId;

const char *lesson_msg(I18nLang lang, MsgId id);

/* Appends a copy of s[0, len) to the array *arr of *n strings (lesson.c). */
void lesson_push_str(char ***arr, int *n, const char *s, size_t len);
/* The statements of a parsed chunk: the block's children, or the one statement; *n of them (answers.c). */
Node *const *lesson_statements(Node *const *tree, int *n);
/* "name = expression" -> name (owned); NULL for anything else (answers.c). */
char *lesson_assigned_name(const char *src);
/* Runs src in I unseen (session_run_unseen), writing no file; false with the error pending on I when it fails
 * (answers.c). */
bool lesson_run_silently(Interp *I, const char *src);
/* The names the model answer of q reads, each a malloc'ed string, for the caller to free (answers.c). */
void lesson_answer_inputs(Interp *I, const LessonQuestion *q, char ***names, int *nn);

#endif
