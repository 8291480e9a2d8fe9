// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of src/out/quote: quotef/quoteaf as GNU wc prints them. Every
// expected string below was printed by a real GNU wc (not written by hand):
// the quotef column is NAME in `wc -- NAME` -> `wc: NAME: No such file or
// directory` (for the empty name, `cat ''`, which uses the same quotef), the
// quoteaf column is NAME in `wc --files0-from=NAME` -> `wc: cannot open NAME
// for reading: ...`. tests/compat/quote_fuzz.py compares thousands of random
// names the same way.

#include <doctest/doctest.h>

#include <clocale>
#include <iterator>
#include <string>
#include <string_view>

#include "out/quote.hpp"
#include "test_locales.hpp"

namespace {

using fastwc::out::quote_always;
using fastwc::out::quote_file_name_for_diagnostic;
using fastwc::out::quoting_revision;

enum class loc { c, utf8 };

struct row {
  std::string_view name;
  loc locale;
  std::string_view quotef;   // quote_file_name_for_diagnostic
  std::string_view quoteaf;  // quote_always
};

// GNU wc 9.1 (Debian 12, glibc 2.36), LC_ALL=C and LC_ALL=C.UTF-8.
// clang-format off
constexpr row wc_9_1[] = {
    {"a.txt", loc::c, R"(a.txt)", R"('a.txt')"},
    {"a.txt", loc::utf8, R"(a.txt)", R"('a.txt')"},
    {"a b", loc::c, R"('a b')", R"('a b')"},
    {"a b", loc::utf8, R"('a b')", R"('a b')"},
    {"x:y", loc::c, R"('x:y')", R"('x:y')"},
    {"x:y", loc::utf8, R"('x:y')", R"('x:y')"},
    {"no'such", loc::c, R"("no'such")", R"("no'such")"},
    {"no'such", loc::utf8, R"("no'such")", R"("no'such")"},
    {"a'b\nc", loc::c, R"('a'\''b'$'\n''c')", R"('a'\''b'$'\n''c')"},
    {"a'b\nc", loc::utf8, R"('a'\''b'$'\n''c')", R"('a'\''b'$'\n''c')"},
    {"nl\nname", loc::c, R"('nl'$'\n''name')", R"('nl'$'\n''name')"},
    {"nl\nname", loc::utf8, R"('nl'$'\n''name')", R"('nl'$'\n''name')"},
    {"é", loc::c, R"(''$'\303\251')", R"(''$'\303\251')"},
    {"é", loc::utf8, R"(é)", R"('é')"},
    {"", loc::c, R"('')", R"('')"},
    {"", loc::utf8, R"('')", R"('')"},
    {"~", loc::c, R"('~')", R"('~')"},
    {"~", loc::utf8, R"('~')", R"('~')"},
    {"~x", loc::c, R"('~x')", R"('~x')"},
    {"~x", loc::utf8, R"('~x')", R"('~x')"},
    {"x~", loc::c, R"(x~)", R"('x~')"},
    {"x~", loc::utf8, R"(x~)", R"('x~')"},
    {"#x", loc::c, R"('#x')", R"('#x')"},
    {"#x", loc::utf8, R"('#x')", R"('#x')"},
    {"x#", loc::c, R"(x#)", R"('x#')"},
    {"x#", loc::utf8, R"(x#)", R"('x#')"},
    {"{", loc::c, R"('{')", R"('{')"},
    {"{", loc::utf8, R"('{')", R"('{')"},
    {"}", loc::c, R"('}')", R"('}')"},
    {"}", loc::utf8, R"('}')", R"('}')"},
    {"{}", loc::c, R"({})", R"('{}')"},
    {"{}", loc::utf8, R"({})", R"('{}')"},
    {"{'", loc::c, R"('{'\''')", R"('{'\''')"},
    {"{'", loc::utf8, R"('{'\''')", R"('{'\''')"},
    {"a#'", loc::c, R"('a#'\''')", R"('a#'\''')"},
    {"a#'", loc::utf8, R"('a#'\''')", R"('a#'\''')"},
    {"~'", loc::c, R"("~'")", R"("~'")"},
    {"~'", loc::utf8, R"("~'")", R"("~'")"},
    {"@'", loc::c, R"("@'")", R"("@'")"},
    {"@'", loc::utf8, R"("@'")", R"("@'")"},
    {"x:'", loc::c, R"("x:'")", R"("x:'")"},
    {"x:'", loc::utf8, R"("x:'")", R"("x:'")"},
    {"'", loc::c, R"("'")", R"("'")"},
    {"'", loc::utf8, R"("'")", R"("'")"},
    {"''", loc::c, R"("''")", R"("''")"},
    {"''", loc::utf8, R"("''")", R"("''")"},
    {"a\\b", loc::c, R"('a\b')", R"('a\b')"},
    {"a\\b", loc::utf8, R"('a\b')", R"('a\b')"},
    {"a?b", loc::c, R"('a?b')", R"('a?b')"},
    {"a?b", loc::utf8, R"('a?b')", R"('a?b')"},
    {"a=b", loc::c, R"('a=b')", R"('a=b')"},
    {"a=b", loc::utf8, R"('a=b')", R"('a=b')"},
    {"$HOME", loc::c, R"('$HOME')", R"('$HOME')"},
    {"$HOME", loc::utf8, R"('$HOME')", R"('$HOME')"},
    {"`x`", loc::c, R"('`x`')", R"('`x`')"},
    {"`x`", loc::utf8, R"('`x`')", R"('`x`')"},
    {"a|b", loc::c, R"('a|b')", R"('a|b')"},
    {"a|b", loc::utf8, R"('a|b')", R"('a|b')"},
    {"a;b", loc::c, R"('a;b')", R"('a;b')"},
    {"a;b", loc::utf8, R"('a;b')", R"('a;b')"},
    {"a&b", loc::c, R"('a&b')", R"('a&b')"},
    {"a&b", loc::utf8, R"('a&b')", R"('a&b')"},
    {"(x)", loc::c, R"('(x)')", R"('(x)')"},
    {"(x)", loc::utf8, R"('(x)')", R"('(x)')"},
    {"*", loc::c, R"('*')", R"('*')"},
    {"*", loc::utf8, R"('*')", R"('*')"},
    {"a>b<", loc::c, R"('a>b<')", R"('a>b<')"},
    {"a>b<", loc::utf8, R"('a>b<')", R"('a>b<')"},
    {"!x", loc::c, R"('!x')", R"('!x')"},
    {"!x", loc::utf8, R"('!x')", R"('!x')"},
    {"\"q\"", loc::c, R"('"q"')", R"('"q"')"},
    {"\"q\"", loc::utf8, R"('"q"')", R"('"q"')"},
    {"[x]", loc::c, R"('[x]')", R"('[x]')"},
    {"[x]", loc::utf8, R"('[x]')", R"('[x]')"},
    {"^x", loc::c, R"('^x')", R"('^x')"},
    {"^x", loc::utf8, R"('^x')", R"('^x')"},
    {"a]b", loc::c, R"(a]b)", R"('a]b')"},
    {"a]b", loc::utf8, R"(a]b)", R"('a]b')"},
    {"%+,-./_@", loc::c, R"(%+,-./_@)", R"('%+,-./_@')"},
    {"%+,-./_@", loc::utf8, R"(%+,-./_@)", R"('%+,-./_@')"},
    {"-x", loc::c, R"(-x)", R"('-x')"},
    {"-x", loc::utf8, R"(-x)", R"('-x')"},
    {"standard input", loc::c, R"('standard input')", R"('standard input')"},
    {"standard input", loc::utf8, R"('standard input')", R"('standard input')"},
    {"\a\b\t\n\v\f\r", loc::c, R"(''$'\a\b\t\n\v\f\r')", R"(''$'\a\b\t\n\v\f\r')"},
    {"\a\b\t\n\v\f\r", loc::utf8, R"(''$'\a\b\t\n\v\f\r')", R"(''$'\a\b\t\n\v\f\r')"},
    {"\001", loc::c, R"(''$'\001')", R"(''$'\001')"},
    {"\001", loc::utf8, R"(''$'\001')", R"(''$'\001')"},
    {"a\177", loc::c, R"('a'$'\177')", R"('a'$'\177')"},
    {"a\177", loc::utf8, R"('a'$'\177')", R"('a'$'\177')"},
    {"a\377b", loc::c, R"('a'$'\377''b')", R"('a'$'\377''b')"},
    {"a\377b", loc::utf8, R"('a'$'\377''b')", R"('a'$'\377''b')"},
    {"\351", loc::c, R"(''$'\351')", R"(''$'\351')"},
    {"\351", loc::utf8, R"(''$'\351')", R"(''$'\351')"},
    {"x\342\200", loc::c, R"('x'$'\342\200')", R"('x'$'\342\200')"},
    {"x\342\200", loc::utf8, R"('x'$'\342\200')", R"('x'$'\342\200')"},
    {"\342\200x", loc::c, R"(''$'\342\200''x')", R"(''$'\342\200''x')"},
    {"\342\200x", loc::utf8, R"(''$'\342\200''x')", R"(''$'\342\200''x')"},
    {"\302\205", loc::c, R"(''$'\302\205')", R"(''$'\302\205')"},
    {"\302\205", loc::utf8, R"(''$'\302\205')", R"(''$'\302\205')"},
    {"\342\200\250", loc::c, R"(''$'\342\200\250')", R"(''$'\342\200\250')"},
    {"\342\200\250", loc::utf8, R"(''$'\342\200\250')", R"(''$'\342\200\250')"},
    {"\342\200\213", loc::c, R"(''$'\342\200\213')", R"(''$'\342\200\213')"},
    {"\342\200\213", loc::utf8, "\342\200\213", "'\342\200\213'"},
    {"\302\240", loc::c, R"(''$'\302\240')", R"(''$'\302\240')"},
    {"\302\240", loc::utf8, "\302\240", "'\302\240'"},
    {"😀", loc::c, R"(''$'\360\237\230\200')", R"(''$'\360\237\230\200')"},
    {"😀", loc::utf8, R"(😀)", R"('😀')"},
    {"\364\220\200\200", loc::c, R"(''$'\364\220\200\200')", R"(''$'\364\220\200\200')"},
    {"\364\220\200\200", loc::utf8, R"(''$'\364\220\200\200')", R"(''$'\364\220\200\200')"},
    {"\355\240\200", loc::c, R"(''$'\355\240\200')", R"(''$'\355\240\200')"},
    {"\355\240\200", loc::utf8, R"(''$'\355\240\200')", R"(''$'\355\240\200')"},
    {"\300\257", loc::c, R"(''$'\300\257')", R"(''$'\300\257')"},
    {"\300\257", loc::utf8, R"(''$'\300\257')", R"(''$'\300\257')"},
    {"\370\210\200\200\200", loc::c, R"(''$'\370\210\200\200\200')", R"(''$'\370\210\200\200\200')"},
    {"\370\210\200\200\200", loc::utf8, R"(''$'\370\210\200\200\200')", R"(''$'\370\210\200\200\200')"},
    {"é'", loc::c, R"(''$'\303\251'\''')", R"(''$'\303\251'\''')"},
    {"é'", loc::utf8, R"("é'")", R"("é'")"},
    {"ü\n", loc::c, R"(''$'\303\274\n')", R"(''$'\303\274\n')"},
    {"ü\n", loc::utf8, R"('ü'$'\n')", R"('ü'$'\n')"},
    {"日本:語", loc::c, R"(''$'\346\227\245\346\234\254'':'$'\350\252\236')", R"(''$'\346\227\245\346\234\254'':'$'\350\252\236')"},
    {"日本:語", loc::utf8, R"('日本:語')", R"('日本:語')"},
    {"a'é b", loc::c, R"('a'\'''$'\303\251'' b')", R"('a'\'''$'\303\251'' b')"},
    {"a'é b", loc::utf8, R"("a'é b")", R"("a'é b")"},
    {"a'\200", loc::c, R"('''a'\'''$'\200')", R"('''a'\'''$'\200')"},
    {"a'\200", loc::utf8, R"('''a'\'''$'\200')", R"('''a'\'''$'\200')"},
    {"x'\001", loc::c, R"('''x'\'''$'\001')", R"('''x'\'''$'\001')"},
    {"x'\001", loc::utf8, R"('''x'\'''$'\001')", R"('''x'\'''$'\001')"},
    {"\001'x\001", loc::c, R"('\001'\''x'$'\001')", R"('\001'\''x'$'\001')"},
    {"\001'x\001", loc::utf8, R"('\001'\''x'$'\001')", R"('\001'\''x'$'\001')"},
    {"\t'", loc::c, R"(''$'\t'\''')", R"(''$'\t'\''')"},
    {"\t'", loc::utf8, R"(''$'\t'\''')", R"(''$'\t'\''')"},
    {"it's\n", loc::c, R"('''it'\''s'$'\n')", R"('''it'\''s'$'\n')"},
    {"it's\n", loc::utf8, R"('''it'\''s'$'\n')", R"('''it'\''s'$'\n')"},
    {"'\n", loc::c, R"(''\'''$'\n')", R"(''\'''$'\n')"},
    {"'\n", loc::utf8, R"(''\'''$'\n')", R"(''\'''$'\n')"},
    {"a'b c\033", loc::c, R"('''a'\''b c'$'\033')", R"('''a'\''b c'$'\033')"},
    {"a'b c\033", loc::utf8, R"('''a'\''b c'$'\033')", R"('''a'\''b c'$'\033')"},
};

// The same names where the wc of coreutils 9.7 and 9.10 differ from 9.1 (the
// gnulib restart quirk described in quote.cpp), plus two names whose output
// did not change, as Debian's builds of wc 9.7 and 9.10 print them (identical output).
constexpr row wc_9_7[] = {
    {"a'\200", loc::c, R"('a'\'''$'\200')", R"('a'\'''$'\200')"},
    {"a'\200", loc::utf8, R"('a'\'''$'\200')", R"('a'\'''$'\200')"},
    {"x'\001", loc::c, R"('x'\'''$'\001')", R"('x'\'''$'\001')"},
    {"x'\001", loc::utf8, R"('x'\'''$'\001')", R"('x'\'''$'\001')"},
    {"\001'x\001", loc::c, R"(''$'\001'\''x'$'\001')", R"(''$'\001'\''x'$'\001')"},
    {"\001'x\001", loc::utf8, R"(''$'\001'\''x'$'\001')", R"(''$'\001'\''x'$'\001')"},
    {"\t'", loc::c, R"(''$'\t'\''')", R"(''$'\t'\''')"},
    {"\t'", loc::utf8, R"(''$'\t'\''')", R"(''$'\t'\''')"},
    {"it's\n", loc::c, R"('it'\''s'$'\n')", R"('it'\''s'$'\n')"},
    {"it's\n", loc::utf8, R"('it'\''s'$'\n')", R"('it'\''s'$'\n')"},
    {"'\n", loc::c, R"(''\'''$'\n')", R"(''\'''$'\n')"},
    {"'\n", loc::utf8, R"(''\'''$'\n')", R"(''\'''$'\n')"},
    {"a'b c\033", loc::c, R"('a'\''b c'$'\033')", R"('a'\''b c'$'\033')"},
    {"a'b c\033", loc::utf8, R"('a'\''b c'$'\033')", R"('a'\''b c'$'\033')"},
};
// clang-format on

// Sets LC_ALL for one check and puts "C" back afterwards, so that a failed
// check cannot leak a locale into other tests.
class scoped_locale {
 public:
  explicit scoped_locale(loc l) {
    const char* name = l == loc::c ? "C" : "C.UTF-8";
    ok_ = std::setlocale(LC_ALL, name) != nullptr;
  }
  ~scoped_locale() { std::setlocale(LC_ALL, "C"); }
  scoped_locale(const scoped_locale&) = delete;
  scoped_locale& operator=(const scoped_locale&) = delete;
  [[nodiscard]] bool ok() const { return ok_; }

 private:
  bool ok_ = false;
};

std::string describe(const row& r) {
  std::string text = r.locale == loc::c ? "LC_ALL=C name=" : "LC_ALL=C.UTF-8 name=";
  for (const char ch : r.name) {
    const auto byte = static_cast<unsigned char>(ch);
    if (byte >= 0x20 && byte < 0x7f) {
      text += ch;
    } else {
      constexpr char digits[] = "0123456789abcdef";
      text += "\\x";
      text += digits[byte >> 4];
      text += digits[byte & 15];
    }
  }
  return text;
}

void check_table(const row* begin, const row* end, quoting_revision revision) {
  for (const row* r = begin; r != end; ++r) {
    const scoped_locale locale(r->locale);
    REQUIRE_MESSAGE(locale.ok(), "locale C.UTF-8 is missing (glibc >= 2.35 has it built in)");
    INFO(describe(*r));
    CHECK(quote_file_name_for_diagnostic(r->name, revision) == std::string(r->quotef));
    CHECK(quote_always(r->name, revision) == std::string(r->quoteaf));
  }
}

}  // namespace

TEST_CASE("quote: matches GNU wc 9.1 in the C and C.UTF-8 locales") {
  check_table(std::begin(wc_9_1), std::end(wc_9_1), quoting_revision::coreutils_9_1);
}

TEST_CASE("quote: matches GNU wc 9.7/9.10 where their gnulib differs") {
  check_table(std::begin(wc_9_7), std::end(wc_9_7), quoting_revision::coreutils_9_7);
}

TEST_CASE("quote: the default revision is coreutils 9.1") {
  const scoped_locale locale(loc::c);
  CHECK(quote_file_name_for_diagnostic("x'\001") == "'''x'\\'''$'\\001'");
  CHECK(quote_always("x'\001") == "'''x'\\'''$'\\001'");
}

TEST_CASE("quote: a NUL ends the name, as for GNU wc's C strings") {
  const scoped_locale locale(loc::c);
  constexpr std::string_view with_nul("a b\0c\n", 6);
  CHECK(quote_file_name_for_diagnostic(with_nul) == "'a b'");
  CHECK(quote_always(with_nul) == "'a b'");
  CHECK(quote_file_name_for_diagnostic(std::string_view("\0x", 2)) == "''");
}

TEST_CASE(
    "quote_escaped: gnulib's locale_quoting_style, as GNU wc 9.10 quotes --total's argument") {
  using fastwc::out::quote_escaped;
  // `LC_ALL=... wc --total=ARG f` -> "wc: invalid argument QUOTED for ...".
  {
    const scoped_locale locale(loc::c);
    CHECK(quote_escaped("a\nb", "'", "'") == R"('a\nb')");
    CHECK(quote_escaped("it's", "'", "'") == R"('it\'s')");
    CHECK(quote_escaped("back\\slash", "'", "'") == R"('back\\slash')");
    CHECK(quote_escaped("\x01\x7f\t\a\b\f\r\v", "'", "'") == R"('\001\177\t\a\b\f\r\v')");
    CHECK(quote_escaped("\xe9t\xc3\xa9", "'", "'") == R"('\351t\303\251')");
    CHECK(quote_escaped("\u2019x\u2018", "'", "'") == R"('\342\200\231x\342\200\230')");
  }
  {
    const scoped_locale locale(loc::utf8);
    REQUIRE(locale.ok());
    constexpr const char* left = "\u2018";
    constexpr const char* right = "\u2019";
    CHECK(quote_escaped("a\nb", left, right) == "\u2018a\\nb\u2019");
    CHECK(quote_escaped("it's", left, right) == "\u2018it's\u2019");
    CHECK(quote_escaped("\xe9t\xc3\xa9", left, right) == "\u2018\\351t\xc3\xa9\u2019");
    CHECK(quote_escaped("\u2019x\u2018", left, right) == "\u2018\\\u2019x\u2018\u2019");
    CHECK(quote_escaped("\xe2\x80", left, right) == "\u2018\\342\\200\u2019");
  }
}

TEST_CASE("quote: a combining pair of a stateful locale, as each gnulib decodes it") {
  // BIG5-HKSCS 88 62 is U+00CA followed by U+0304. Until 9.4 gnulib decodes
  // on until the state is initial, and a pair that ends the name is then
  // incomplete; 9.5+ (regular mbrtoc32) drop the U+0304. Printed by GNU wc
  // 9.1 and by GNU wc 9.7 and 9.10 for `wc -- NAME`, and
  // `wc --files0-from=NAME` for the quote_always column.
  if (!fastwc::testing::prepare_test_locale("zh_HK.BIG5-HKSCS")) return;
  REQUIRE(std::setlocale(LC_ALL, "zh_HK.BIG5-HKSCS") != nullptr);
  using fastwc::out::name_decoding;
  struct stateful_row {
    std::string_view name;
    name_decoding decoding;
    std::string_view quotef;
    std::string_view quoteaf;
  };
  // clang-format off
  constexpr stateful_row rows[] = {
      {"x\x88\x62", name_decoding::until_initial_state, R"('x'$'\210\142')", R"('x'$'\210\142')"},
      {"x\x88\x62", name_decoding::regular_mbrtoc32, "x\x88\x62", "'x\x88\x62'"},
      {"\x88\x62\x88\x62", name_decoding::until_initial_state, "'\x88\x62'$'\\210\\142'", "'\x88\x62'$'\\210\\142'"},
      {"\x88\x62\x88\x62", name_decoding::regular_mbrtoc32, "\x88\x62\x88\x62", "'\x88\x62\x88\x62'"},
      // Followed by more, the pair is complete under both.
      {"x\x88\x62y", name_decoding::until_initial_state, "x\x88\x62y", "'x\x88\x62y'"},
      {"x\x88\x62y", name_decoding::regular_mbrtoc32, "x\x88\x62y", "'x\x88\x62y'"},
      {"\x88", name_decoding::until_initial_state, R"(''$'\210')", R"(''$'\210')"},
      {"\x88", name_decoding::regular_mbrtoc32, R"(''$'\210')", R"(''$'\210')"},
  };
  // clang-format on
  for (const stateful_row& r : rows) {
    CAPTURE(std::string(r.name));
    CAPTURE(int(r.decoding));
    fastwc::out::set_name_decoding(r.decoding);
    CHECK(quote_file_name_for_diagnostic(r.name) == std::string(r.quotef));
    CHECK(quote_always(r.name) == std::string(r.quoteaf));
  }
  fastwc::out::set_name_decoding(name_decoding::until_initial_state);
  std::setlocale(LC_ALL, "C");
}
