/* library.c - the libraries opened into the language (see library.h). */
#include "library.h"
#include "interp.h"
#include <stdio.h>
#include <stdlib.h>

/* Set once, by the first lib_open (builtins_open calls it under pthread_once), read-only afterwards. */
static const Library *opened;

void lib_open(const Library *l) {
    if (opened) return;
    classes_open();                     /* the language's static classes, made before any interpreter runs */
    opened = l;
}

const Library *lib_opened(void) { return opened; }

const Library *lib(void) {
    if (!opened) {
        fputs("attn: internal error: the builtin libraries were not opened (builtins_open)\n", stderr);
        abort();
    }
    return opened;
}
