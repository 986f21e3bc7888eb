/* library.c - the libraries opened into the language (see library.h). */
#include "library.h"
#include <stdio.h>
#include <stdlib.h>

static const Library *opened;

void lib_open(const Library *l) {
    if (!opened) opened = l;
}

const Library *lib_opened(void) { return opened; }

const Library *lib(void) {
    if (!opened) {
        fputs("attn: internal error: the builtin libraries were not opened (builtins_open)\n", stderr);
        abort();
    }
    return opened;
}
