/* parser.h - source text to syntax tree (prefix parse_). */
#ifndef ATTN_PARSER_H
#define ATTN_PARSER_H
#include "ast.h"
#include <stdbool.h>

typedef struct ParseResult {
    Node *tree;             /* N_BLOCK of statements, or NULL on error */
    bool incomplete;        /* the text ends in the middle of a statement: read another line */
    char msg[256];          /* the error, when tree is NULL and !incomplete */
    int line, col;          /* where */
} ParseResult;

/* Parses src (first_line is the line number of its first line, for messages). */
ParseResult parse_program(const char *src, int first_line);
/* The same, for a statement parsed while the evaluator is depth_used levels deep (Interp.depth, timeit inside a
 * function): the tree may nest only AST_MAX_DEPTH - depth_used levels, the one budget both share. */
ParseResult parse_program_at(const char *src, int first_line, int depth_used);
#endif
