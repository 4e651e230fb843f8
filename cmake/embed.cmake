# Writes the text of IN as a NUL-terminated C array named NAME into OUT, so
# that the built-in rules are compiled from the same file users can read.
file(READ "${IN}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE "${OUT}" "/* Generated from ${IN}; do not edit. */\nconst char ${NAME}[] = {${bytes}0x00};\n")
