#!/usr/bin/env bash
# errbuf.sh - one spelling for the buffer of a one-line error message: a
# parameter pair of a char buffer named err*, msg*, why*, reason* or
# error* and its size is `char *err, size_t errlen`, in every C and CUDA
# file of src/ and tests/ (issue 31).  The check is tried first on planted
# files, so that a pattern that can no longer match fails here too.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)

# offenders DIR...: "FILE:LINE: char *X, size_t Y" for each other spelling
# (the pair may be split over lines; `const char *` is an input, not a buffer)
offenders() {
    find "$@" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) -print0 |
        sort -z | xargs -0 perl -0777 -ne '
            while (/(?<![\w\s])(\s*)char\s*\*\s*((?:err|msg|why|reason|error)\w*)\s*,\s*size_t\s+(\w+)\s*(?=[,)])/g) {
                next if $2 eq "err" && $3 eq "errlen";
                my $line = 1 + (substr($_, 0, $-[0] + length $1) =~ tr/\n//);
                print "$ARGV:$line: char *$2, size_t $3\n";
            }'
}

# planted: four wrong spellings (one split over two lines) and two right ones
mkdir -p "$TMP/planted"
cat >"$TMP/planted/a.c" <<'C'
int ok(const char *s, char *err, size_t errlen);
int ok2(char *err,
        size_t errlen);
int bad1(const char *s, char *msg, size_t msglen);
int bad2(char *why, size_t n)
{
    return n > 0 && why;
}
int bad3(int x, char *err,
         size_t n);
typedef int (*bad4)(char *reason, size_t len);
int input(const char *msg, size_t len);
C
got=$(offenders "$TMP/planted" | sed "s|^$TMP/planted/||")
want='a.c:4: char *msg, size_t msglen
a.c:5: char *why, size_t n
a.c:9: char *err, size_t n
a.c:11: char *reason, size_t len'
if [ "$got" = "$want" ]; then pass errbuf/planted_spellings_found
else fail errbuf/planted_spellings_found "found: $(echo "$got" | tr '\n' ';') wanted: $(echo "$want" | tr '\n' ';')"; fi

bad=$(offenders "$root/src" "$root/tests" | sed "s|^$root/||")
if [ -z "$bad" ]; then pass errbuf/one_spelling
else fail errbuf/one_spelling "$(echo "$bad" | wc -l) error buffers not spelled 'char *err, size_t errlen': $(echo "$bad" | head -5 | tr '\n' ';')"; fi
