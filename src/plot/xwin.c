/* xwin.c - what a projector's figures ask the X server itself: the screen's size (so a scaled window fits it) and
 * which window has the keyboard (so the teacher's terminal keeps it when gnuplot maps or redraws its window).
 * libX11 is loaded with dlopen when first needed: attn neither links it nor needs it (no display, Wayland alone,
 * libX11 absent: every question answers "unknown" and figures are drawn as before). */
#define _GNU_SOURCE
#include "plot_internal.h"
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int (*XErrorFn)(void *display, void *event);

struct XWin {
    void *lib;                  /* dlopen handle of libX11, NULL when it could not be loaded */
    void *dpy;                  /* Display *, NULL when the display could not be opened */
    void *(*open)(const char *);
    int (*close)(void *);
    int (*screen)(void *);
    int (*width)(void *, int), (*height)(void *, int);
    int (*get_focus)(void *, unsigned long *, int *);
    int (*set_focus)(void *, unsigned long, int, unsigned long);
    int (*sync)(void *, int);
    XErrorFn (*on_error)(XErrorFn);
};

/* A window that went away between two questions (BadWindow) is not attn's concern: Xlib's default handler would
 * end the process. */
static int ignore_x_error(void *display, void *event) {
    (void)display;
    (void)event;
    return 0;
}

XWin *xwin_open(void) {
    const char *d = getenv("DISPLAY");
    if (!d || !*d) return NULL;
    void *lib = dlopen("libX11.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return NULL;
    XWin *x = xcalloc(1, sizeof *x);
    x->lib = lib;
    /* POSIX's way to take a function from dlsym without converting an object pointer to a function pointer */
    *(void **)&x->open = dlsym(lib, "XOpenDisplay");
    *(void **)&x->close = dlsym(lib, "XCloseDisplay");
    *(void **)&x->screen = dlsym(lib, "XDefaultScreen");
    *(void **)&x->width = dlsym(lib, "XDisplayWidth");
    *(void **)&x->height = dlsym(lib, "XDisplayHeight");
    *(void **)&x->get_focus = dlsym(lib, "XGetInputFocus");
    *(void **)&x->set_focus = dlsym(lib, "XSetInputFocus");
    *(void **)&x->sync = dlsym(lib, "XSync");
    *(void **)&x->on_error = dlsym(lib, "XSetErrorHandler");
    if (!x->open || !x->close || !x->screen || !x->width || !x->height || !x->get_focus || !x->set_focus || !x->sync ||
        !x->on_error || !(x->dpy = x->open(d))) {
        dlclose(lib);
        free(x);
        return NULL;
    }
    x->on_error(ignore_x_error);
    return x;
}

void xwin_close(XWin *x) {
    if (!x) return;
    x->close(x->dpy);
    dlclose(x->lib);
    free(x);
}

bool xwin_screen_size(XWin *x, int *w, int *h) {
    if (!x) return false;
    int s = x->screen(x->dpy);
    *w = x->width(x->dpy, s);
    *h = x->height(x->dpy, s);
    return *w > 0 && *h > 0;
}

unsigned long xwin_focus(XWin *x) {
    unsigned long w = 0;
    int revert;
    if (!x) return 0;
    x->get_focus(x->dpy, &w, &revert);
    return w;
}

/* Waits up to ms milliseconds for the keyboard focus to leave `keep` (a window manager gives a new or raised window
 * the focus a moment after gnuplot maps it) and gives it back to keep; then watches as long again, in case the
 * window manager hands it over a second time. keep 0 (no window had the focus): nothing to keep. */
void xwin_keep_focus(XWin *x, unsigned long keep, int ms) {
    if (!x || keep == 0) return;
    for (int waited = 0, restored = 0; waited < ms; waited += 20) {
        unsigned long now = xwin_focus(x);
        if (now != keep && restored++ < 5) {
            x->set_focus(x->dpy, keep, 2 /* RevertToParent */, 0 /* CurrentTime */);
            x->sync(x->dpy, 0);
            waited = 0;
            ms = ms < 400 ? ms : 400;
        }
        struct timespec ts = {0, 20000000};
        nanosleep(&ts, NULL);
    }
}
