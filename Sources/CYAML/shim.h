#ifndef CONTEXTKIT_CYAML_SHIM_H
#define CONTEXTKIT_CYAML_SHIM_H
#include <yaml.h>
#endif
