#ifndef CONTEXTKIT_CCURL_SHIM_H
#define CONTEXTKIT_CCURL_SHIM_H
/* curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic,
   which Swift cannot call: these typed wrappers pass one argument type each. */
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <sys/eventfd.h>
#include <unistd.h>

static inline CURLcode ck_setopt_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ck_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ck_setopt_string(CURL *handle, CURLoption option, const char *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ck_setopt_pointer(CURL *handle, CURLoption option, void *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ck_setopt_list(CURL *handle, CURLoption option, struct curl_slist *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ck_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ck_setopt_prereq_function(CURL *handle, curl_prereq_callback value) {
  return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, value);
}

static inline CURLcode ck_getinfo_long(CURL *handle, CURLINFO info, long *value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode ck_getinfo_string(CURL *handle, CURLINFO info, char **value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode ck_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode ck_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
  return curl_multi_setopt(multi, option, value);
}

/* The pause codes are macros built with `|`, which Swift does not import. */
static inline CURLcode ck_pause_receiving(CURL *handle) {
  return curl_easy_pause(handle, CURLPAUSE_RECV);
}

static inline CURLcode ck_resume_all(CURL *handle) {
  return curl_easy_pause(handle, CURLPAUSE_CONT);
}

static inline size_t ck_write_pause(void) {
  return CURL_WRITEFUNC_PAUSE;
}

static inline long ck_global_default(void) {
  return CURL_GLOBAL_DEFAULT;
}
/* The loop thread is woken through an eventfd passed to curl_multi_poll. */
static inline int ck_make_wake_descriptor(void) {
  return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

static inline void ck_wake(int descriptor) {
  eventfd_write(descriptor, 1);
}

static inline void ck_drain_wake(int descriptor) {
  eventfd_t value;
  eventfd_read(descriptor, &value);
}

static inline long ck_http_version_1_1(void) {
  return CURL_HTTP_VERSION_1_1;
}
#endif
