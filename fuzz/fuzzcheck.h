#pragma once

// What a fuzz target asserts beyond "no crash, no sanitizer report": a broken property prints
// what broke and aborts, which libFuzzer reports as a crash and saves the input for.

#include <QString>

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(condition, what)                                                                             \
    do {                                                                                                        \
        if (!(condition)) {                                                                                     \
            std::fprintf(stderr, "FUZZ_CHECK failed at %s:%d: %s\n  %s\n", __FILE__, __LINE__, #condition,     \
                         qUtf8Printable(QString(what)));                                                        \
            std::abort();                                                                                       \
        }                                                                                                       \
    } while (false)
