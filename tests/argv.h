/* argv.h - a command line written inline for an option parser's test:
 * PARSE("--size", "4096") calls the test's own parse_argv(argc, argv) with
 * { "gemmprof", "--size", "4096", NULL } and argc 3. */
#ifndef GP_TEST_ARGV_H
#define GP_TEST_ARGV_H

#define ARGV(...) ((char *[]){ "gemmprof", __VA_ARGS__, NULL })
#define ARGC(...) ((int)(sizeof((char *[]){ "gemmprof", __VA_ARGS__ }) / sizeof(char *)))
#define PARSE(...) parse_argv(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))

#endif
