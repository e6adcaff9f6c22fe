#ifndef CONTEXTKIT_CMARK_SHIM_H
#define CONTEXTKIT_CMARK_SHIM_H
#include <cmark.h>
#endif
