# Optimization levels for scripts/local-model's fast build of llama-cpp-python,
# included after llama.cpp's project() call (CMAKE_PROJECT_llama.cpp_INCLUDE)
# and applied when its directory has defined every target (cmake_language DEFER).
#
# The CPU kernels (ggml-cpu: matrix products, attention, quantized dot
# products) keep the release build's -O3. The rest runs once per request or per
# batch, not per weight: the llama library (model graphs, vocabulary, sampling,
# the context) at -O0 and ggml's base library (graph building, allocation, the
# backend scheduler, file loading) at -O1. Measured on a slow 2-core machine:
# compiling the `llama` target took 74 s of CPU instead of 131; a 1,060-token
# prompt and 64 sampled tokens took the same time within noise, and greedy
# answers were byte for byte the same. Tokenizing is 8 times slower at -O0
# (8 ms for a 1,000-token prompt), which the server does once per request.
cmake_language(DEFER CALL target_compile_options llama PRIVATE -O0)
cmake_language(DEFER CALL target_compile_options ggml-base PRIVATE -O1)
