/* files.c - the state directory, and safe writing of the user's files. */
#include "files.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

const char *file_state_dir(void) {
    static char dir[4096];
    const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    if (xdg && *xdg == '/') snprintf(dir, sizeof dir, "%s/attn", xdg);
    else if (home && *home) snprintf(dir, sizeof dir, "%s/.local/state/attn", home);
    else return "";
    /* mkdir -p */
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", dir);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') { *p = 0; mkdir(tmp, 0700); *p = '/'; }
    mkdir(tmp, 0700);      /* when this fails, writing there fails too, and says why */
    return dir;
}
