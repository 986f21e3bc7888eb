/* lesson_internal.h - what lesson.c, runner.c and messages.c share inside src/lesson: the table of every message a
 * student or a lesson author reads (one place, so it can be translated). */
#ifndef ATTN_LESSON_INTERNAL_H
#define ATTN_LESSON_INTERNAL_H
#include "strbuf.h"

/* Message ids; lesson_msg(id) is the text, a printf format where the id's comment shows arguments. */
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

const char *lesson_msg(MsgId id);

#endif
