//go:build cgo && !wayland

// The functions of libX11 and libGL that the window system library
// (GLFW, through Fyne) and internal/x11 call directly, defined here as
// jumps through pointers that loadWindowLibraries fills with dlopen and
// dlsym before the first window opens. The program therefore does not
// need these libraries to start: every command that opens no window runs
// on a machine without them. The list is what `nm -D --undefined-only
// cubeview` showed from these two libraries when the program linked them;
// a name missing here brings the library back as a NEEDED entry, which
// TestNoWindowLibrariesNeeded catches.

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#define X11_SYMBOLS(S) \
	S(XAllocClassHint) \
	S(XAllocSizeHints) \
	S(XAllocWMHints) \
	S(XChangeProperty) \
	S(XChangeWindowAttributes) \
	S(XCheckIfEvent) \
	S(XCheckTypedWindowEvent) \
	S(XCloseDisplay) \
	S(XCloseIM) \
	S(XConvertSelection) \
	S(XCreateColormap) \
	S(XCreateFontCursor) \
	S(XCreateIC) \
	S(XCreateWindow) \
	S(XDefineCursor) \
	S(XDeleteContext) \
	S(XDeleteProperty) \
	S(XDestroyIC) \
	S(XDestroyWindow) \
	S(XDisplayKeycodes) \
	S(XEventsQueued) \
	S(XFilterEvent) \
	S(XFindContext) \
	S(XFlush) \
	S(XFree) \
	S(XFreeColormap) \
	S(XFreeCursor) \
	S(XFreeEventData) \
	S(XGetErrorText) \
	S(XGetEventData) \
	S(XGetICValues) \
	S(XGetIMValues) \
	S(XGetImage) \
	S(XGetInputFocus) \
	S(XGetKeyboardMapping) \
	S(XGetScreenSaver) \
	S(XGetSelectionOwner) \
	S(XGetVisualInfo) \
	S(XGetWMNormalHints) \
	S(XGetWindowAttributes) \
	S(XGetWindowProperty) \
	S(XGrabPointer) \
	S(XIconifyWindow) \
	S(XInitThreads) \
	S(XInternAtom) \
	S(XLookupString) \
	S(XMapRaised) \
	S(XMapWindow) \
	S(XMoveResizeWindow) \
	S(XMoveWindow) \
	S(XNextEvent) \
	S(XOpenDisplay) \
	S(XOpenIM) \
	S(XPeekEvent) \
	S(XPending) \
	S(XQLength) \
	S(XQueryExtension) \
	S(XQueryPointer) \
	S(XRaiseWindow) \
	S(XResizeWindow) \
	S(XResourceManagerString) \
	S(XSaveContext) \
	S(XSelectInput) \
	S(XSendEvent) \
	S(XSetClassHint) \
	S(XSetErrorHandler) \
	S(XSetICFocus) \
	S(XSetInputFocus) \
	S(XSetLocaleModifiers) \
	S(XSetScreenSaver) \
	S(XSetSelectionOwner) \
	S(XSetWMHints) \
	S(XSetWMNormalHints) \
	S(XSetWMProtocols) \
	S(XSupportsLocale) \
	S(XSync) \
	S(XTranslateCoordinates) \
	S(XUndefineCursor) \
	S(XUngrabPointer) \
	S(XUnmapWindow) \
	S(XUnsetICFocus) \
	S(XVisualIDFromVisual) \
	S(XWarpPointer) \
	S(XkbFreeKeyboard) \
	S(XkbFreeNames) \
	S(XkbGetMap) \
	S(XkbGetNames) \
	S(XkbGetState) \
	S(XkbKeycodeToKeysym) \
	S(XkbQueryExtension) \
	S(XkbSelectEventDetails) \
	S(XkbSetDetectableAutoRepeat) \
	S(XrmDestroyDatabase) \
	S(XrmGetResource) \
	S(XrmGetStringDatabase) \
	S(XrmInitialize) \
	S(XrmUniqueQuark) \
	S(Xutf8LookupString) \
	S(Xutf8SetWMProperties)

#define GL_SYMBOLS(S) \
	S(glXGetProcAddress)

#define POINTER(name) __attribute__((visibility("hidden"))) void *cv_ptr_##name;
X11_SYMBOLS(POINTER)
GL_SYMBOLS(POINTER)

// Each function jumps to the library's function of the same name: its
// arguments, in registers and on the stack, pass through untouched.
#define STUB(name) __asm__(".text\n\t.globl " #name "\n\t.hidden " #name "\n\t.type " #name ", @function\n" \
	#name ":\n\tjmp *cv_ptr_" #name "(%rip)\n\t.size " #name ", .-" #name "\n");
X11_SYMBOLS(STUB)
GL_SYMBOLS(STUB)

static char cv_error[512];

#define LOAD(name) \
	if (!(cv_ptr_##name = dlsym(h, #name))) { \
		snprintf(cv_error, sizeof cv_error, "%s has no function %s", lib, #name); \
		return cv_error; \
	}

// cv_load_window_libs loads libX11 and libGL and points every function
// above at theirs; it returns NULL, or what failed. Only the first call
// loads; later calls return its result.
const char *cv_load_window_libs(void) {
	static int done;
	static const char *result;
	if (done) {
		return result;
	}
	done = 1;
	const char *lib = "libX11.so.6";
	void *h = dlopen(lib, RTLD_NOW | RTLD_GLOBAL);
	if (!h) {
		snprintf(cv_error, sizeof cv_error, "%s", dlerror());
		return result = cv_error;
	}
	X11_SYMBOLS(LOAD)
	lib = "libGL.so.1";
	h = dlopen(lib, RTLD_NOW | RTLD_GLOBAL);
	if (!h) {
		snprintf(cv_error, sizeof cv_error, "%s", dlerror());
		return result = cv_error;
	}
	GL_SYMBOLS(LOAD)
	return result = NULL;
}
