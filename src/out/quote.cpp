// SPDX-License-Identifier: GPL-3.0-or-later
// Reimplementation of the two gnulib quotearg styles that GNU wc prints.
// gnulib's quotearg_buffer_restyled() walks the name once per style and
// restarts in another style when it meets something that style cannot
// express ("force_outer_quoting_style", and the apostrophe rule that retries
// in c_quoting_style). Here the name is first cut into units, each classified
// once exactly as that walk would see it (a raw run of bytes, a letter
// escape, octal-escaped bytes, or an apostrophe) together with the two facts
// the restarts depend on: whether the unit forces quoting in the elided
// style, and whether it is "c_and_shell_quote_compat" (harmless inside double
// quotes). The two public functions then only assemble output from units.

#include "out/quote.hpp"

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <cwchar>
#include <cwctype>
#include <vector>

namespace fastwc::out {
namespace {

name_decoding g_name_decoding = name_decoding::until_initial_state;

enum class unit_kind : unsigned char {
  raw,            // bytes copied as they are
  letter_escape,  // one control byte written as \a \b \t \n \v \f \r
  octal_escape,   // bytes written as \ooo each, inside $'...'
  apostrophe,     // a single ' (written '\'' inside single quotes)
};

struct unit {
  std::size_t length;  // bytes of the name this unit covers (>= 1)
  unit_kind kind;
  char letter;  // the escape letter, for letter_escape only
  // The unit makes shell_escape_quoting_style give up eliding the outer
  // quotes (gnulib's "goto force_outer_quoting_style").
  bool forces_quotes;
  // gnulib's c_and_shell_quote_compat: the unit reads the same inside "...".
  bool double_quote_safe;
};

constexpr unit make_raw(std::size_t length, bool forces_quotes, bool double_quote_safe) {
  return unit{length, unit_kind::raw, '\0', forces_quotes, double_quote_safe};
}

// The character at `i` is not one gnulib's switch names: it may start a
// multibyte character. Mirrors the `default:` branch of
// quotearg_buffer_restyled().
unit classify_other(std::string_view name, std::size_t i) {
  const auto byte = static_cast<unsigned char>(name[i]);
  // gnulib: `unibyte_locale = MB_CUR_MAX == 1`, and then only isprint().
  // That is why LC_ALL=C escapes every byte >= 0x80 (isprint is false there).
  if (MB_CUR_MAX == 1) {
    if (std::isprint(byte) != 0) {
      return make_raw(1, false, true);
    }
    return unit{1, unit_kind::octal_escape, '\0', true, false};
  }

  // gnulib decodes with mbrtowc/iswprint (later revisions: mbrtoc32 and
  // c32isprint, which give the same answers on glibc, where wchar_t is
  // UCS-4). The loop runs until the shift state is initial again, which in
  // UTF-8 is after one character.
  std::mbstate_t state{};
  std::size_t m = 0;
  bool printable = true;
  bool older_shell_hazard = false;
  do {
    wchar_t wc = 0;
    const std::size_t rest = name.size() - (i + m);
    const std::size_t bytes = std::mbrtowc(&wc, name.data() + i + m, rest, &state);
    if (bytes == 0) {
      break;  // a NUL; cannot happen, names are cut at the first NUL
    }
    if (bytes == static_cast<std::size_t>(-1)) {
      // An invalid byte: gnulib escapes the bytes decoded before it in this
      // shift sequence or, when there are none (always so in UTF-8), the
      // invalid byte itself, and goes on with the byte after that.
      printable = false;
      break;
    }
    if (bytes == static_cast<std::size_t>(-2)) {
      // A valid but incomplete sequence at the end: gnulib escapes every
      // remaining byte (`while (i + m < argsize && arg[i + m]) m++`).
      printable = false;
      m = name.size() - i;
      break;
    }
    // gnulib works around old shells that see a '\' (etc.) in the trailing
    // bytes of a multibyte character (Big5, Shift_JIS, ...): such a name is
    // always quoted. Trailing bytes are never ASCII in UTF-8.
    // clang-format off
    for (std::size_t j = 1; j < bytes; ++j) {
      switch (name[i + m + j]) {
        case '[': case '\\': case '^': case '`': case '|':
          older_shell_hazard = true;
          break;
        default:
          break;
      }
    }
    // clang-format on
    if (std::iswprint(static_cast<std::wint_t>(wc)) == 0) {
      printable = false;
    }
    m += bytes;
    // A regular mbrtoc32 leaves the state initial after every character.
  } while (g_name_decoding == name_decoding::until_initial_state && std::mbsinit(&state) == 0);

  if (!printable) {
    // gnulib's `for (;;)` loop escapes at least the byte at i even when the
    // decoder stopped before consuming it (m == 0).
    return unit{m == 0 ? 1 : m, unit_kind::octal_escape, '\0', true, false};
  }
  return make_raw(m == 0 ? 1 : m, older_shell_hazard, true);
}

// Classifies the unit that starts at name[i], following the `switch (c)` of
// gnulib's quotearg_buffer_restyled() for the shell styles.
unit classify(std::string_view name, std::size_t i) {
  const char c = name[i];
  // gnulib's case lists, kept in its layout for comparison.
  // clang-format off
  switch (c) {
    // C escapes that the shell-escape styles write as $'\n' and so on.
    case '\a': return unit{1, unit_kind::letter_escape, 'a', true, false};
    case '\b': return unit{1, unit_kind::letter_escape, 'b', true, false};
    case '\f': return unit{1, unit_kind::letter_escape, 'f', true, false};
    case '\n': return unit{1, unit_kind::letter_escape, 'n', true, false};
    case '\r': return unit{1, unit_kind::letter_escape, 'r', true, false};
    case '\t': return unit{1, unit_kind::letter_escape, 't', true, false};
    case '\v': return unit{1, unit_kind::letter_escape, 'v', true, false};

    case '\'':
      return unit{1, unit_kind::apostrophe, '\0', true, true};

    // gnulib: '{' and '}' are "sometimes special if isolated", so a name
    // that is just "{" or "}" is quoted. Elsewhere they are left alone, yet
    // (because gnulib leaves its switch before marking them) they are not
    // counted as double-quote safe: "{'" gives '{'\''', not "{'".
    case '{': case '}':
      if (name.size() != 1) {
        return make_raw(1, false, false);
      }
      return make_raw(1, true, true);

    // A leading '#' (comment) or '~' (tilde expansion) needs quotes; later
    // ones do not, but, as in gnulib, they then lose double-quote safety.
    case '#': case '~':
      return i == 0 ? make_raw(1, true, true) : make_raw(1, false, false);

    case ' ':
      return make_raw(1, true, true);

    // Shell metacharacters, plus '?' and '\' (gnulib handles those two in
    // their own cases, with the same result for the shell styles).
    case '!': case '"': case '$': case '&': case '(': case ')': case '*':
    case ';': case '<': case '=': case '>': case '[': case '^': case '`':
    case '|': case '?': case '\\':
      return make_raw(1, true, false);

    // Characters that are never special ("These characters don't cause
    // problems, no matter what the quoting style is").
    case '%': case '+': case ',': case '-': case '.': case '/':
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9': case ':':
    case 'A': case 'B': case 'C': case 'D': case 'E': case 'F': case 'G':
    case 'H': case 'I': case 'J': case 'K': case 'L': case 'M': case 'N':
    case 'O': case 'P': case 'Q': case 'R': case 'S': case 'T': case 'U':
    case 'V': case 'W': case 'X': case 'Y': case 'Z':
    case ']': case '_':
    case 'a': case 'b': case 'c': case 'd': case 'e': case 'f': case 'g':
    case 'h': case 'i': case 'j': case 'k': case 'l': case 'm': case 'n':
    case 'o': case 'p': case 'q': case 'r': case 's': case 't': case 'u':
    case 'v': case 'w': case 'x': case 'y': case 'z':
      return make_raw(1, false, true);

    default:
      return classify_other(name, i);
  }
  // clang-format on
}

// GNU wc only ever quotes NUL-terminated strings (gnulib is called with
// argsize SIZE_MAX), so a NUL ends the name.
std::string_view as_c_string(std::string_view name) { return name.substr(0, name.find('\0')); }

std::vector<unit> split_units(std::string_view name) {
  std::vector<unit> units;
  for (std::size_t i = 0; i < name.size();) {
    const unit u = classify(name, i);
    units.push_back(u);
    i += u.length;
  }
  return units;
}

void append_octal(std::string& out, unsigned char byte) {
  out += '\\';
  out += static_cast<char>('0' + (byte >> 6));
  out += static_cast<char>('0' + ((byte >> 3) & 7));
  out += static_cast<char>('0' + (byte & 7));
}

bool is_escape(const unit& u) {
  return u.kind == unit_kind::letter_escape || u.kind == unit_kind::octal_escape;
}

// shell_escape_always_quoting_style over already classified units.
std::string quote_units(std::string_view name, const std::vector<unit>& units,
                        quoting_revision revision) {
  bool saw_apostrophe = false;
  bool all_double_quote_safe = true;
  for (const unit& u : units) {
    saw_apostrophe = saw_apostrophe || u.kind == unit_kind::apostrophe;
    all_double_quote_safe = all_double_quote_safe && u.double_quote_safe;
  }
  // gnulib: "Single shell quotes (') are commonly enough used as an
  // apostrophe, that we attempt to minimize the quoting in this case": if
  // nothing else needs care, it re-quotes in c_quoting_style, which for
  // such names is just the name in double quotes (`"no'such"`).
  if (saw_apostrophe && all_double_quote_safe) {
    std::string dq;
    dq.reserve(name.size() + 2);
    dq += '"';
    dq += name;
    dq += '"';
    return dq;
  }

  std::string out;
  out.reserve(name.size() + 8);
  out += '\'';
  // gnulib's pending_shell_escape_end: we are inside a $'...' segment. It is
  // opened by writing '$' after closing the current '...' (so a name that
  // starts with an escape begins with '' — `''$'\303\251'`), and closed by
  // '' which also reopens a plain '...' segment.
  //
  // Quirk of the gnulib in coreutils 9.1: at the first ' it switches to a
  // dry run, to see whether the double-quote form applies, and when it does
  // not it jumps back to `process_input` without resetting
  // pending_shell_escape_end. If the dry run ended inside $'...', the real
  // pass starts as if one were open: a leading raw character gets a stray ''
  // (x'<SOH> -> `'''x'\'''$'\001'`) and a leading escape loses its $'
  // (<SOH>'x<SOH> -> `'\001'\''x'$'\001'`). The wc of coreutils 9.7 and 9.10
  // print `'x'\'''$'\001'` and `''$'\001'\''x'$'\001'` instead.
  bool in_dollar = revision == quoting_revision::coreutils_9_1 && saw_apostrophe &&
                   !units.empty() && is_escape(units.back());
  auto open_dollar = [&] {
    if (!in_dollar) {
      out += "'$'";
      in_dollar = true;
    }
  };

  std::size_t i = 0;
  for (const unit& u : units) {
    const std::string_view bytes = name.substr(i, u.length);
    switch (u.kind) {
      case unit_kind::raw:
        if (in_dollar) {
          out += "''";
          in_dollar = false;
        }
        out += bytes;
        break;
      case unit_kind::letter_escape:
        open_dollar();
        out += '\\';
        out += u.letter;
        break;
      case unit_kind::octal_escape:
        open_dollar();
        for (const char b : bytes) {
          append_octal(out, static_cast<unsigned char>(b));
        }
        break;
      case unit_kind::apostrophe:
        // The first ' ends whichever segment is open, \' is the quote
        // itself, and the last ' opens a new plain segment.
        out += "'\\''";
        in_dollar = false;
        break;
    }
    i += u.length;
  }
  out += '\'';  // also closes a trailing $'...' segment
  return out;
}

}  // namespace

namespace {

/// Restores errno when the quoting is done.
class ErrnoSaver {
 public:
  ErrnoSaver() noexcept : saved_(errno) {}
  ~ErrnoSaver() { errno = saved_; }
  ErrnoSaver(const ErrnoSaver&) = delete;
  ErrnoSaver& operator=(const ErrnoSaver&) = delete;

 private:
  int saved_;
};

}  // namespace

std::string quote_file_name_for_diagnostic(std::string_view name, quoting_revision revision) {
  // Like gnulib's quotearg, leave errno alone: callers quote a name while
  // reporting the errno of a failed open or read (mbrtowc may set EILSEQ).
  const ErrnoSaver errno_saver;
  name = as_c_string(name);
  const std::vector<unit> units = split_units(name);
  // shell_escape_quoting_style elides the quotes unless some unit forces
  // them, the name is empty (`len == 0` => ''), or, for quotef's
  // quotearg_n_style_colon, it holds a ':' (set_char_quoting(..., ':', 1)),
  // which keeps "file:line:" style messages unambiguous.
  bool needs_quotes = name.empty();
  std::size_t i = 0;
  for (const unit& u : units) {
    needs_quotes = needs_quotes || u.forces_quotes || name[i] == ':';
    i += u.length;
  }
  if (!needs_quotes) {
    return std::string(name);
  }
  // gnulib's force_outer_quoting_style restarts in
  // shell_escape_always_quoting_style without quote_these_too: inside quotes
  // ':' is an ordinary character again.
  return quote_units(name, units, revision);
}

std::string quote_always(std::string_view name, quoting_revision revision) {
  const ErrnoSaver errno_saver;
  name = as_c_string(name);
  return quote_units(name, split_units(name), revision);
}

std::string quote_escaped(std::string_view text, std::string_view left, std::string_view right) {
  const ErrnoSaver errno_saver;
  text = as_c_string(text);
  std::string out(left);
  for (std::size_t i = 0; i < text.size();) {
    // gnulib's is_right_quote: the closing quote inside the text is escaped.
    const bool is_right_quote = !right.empty() && text.substr(i).starts_with(right);
    const char c = text[i];
    const char* letters = "\a\b\f\n\r\t\v";
    const char* letter_names = "abfnrtv";
    if (const char* found = c != '\0' ? std::strchr(letters, c) : nullptr) {
      out += '\\';
      out += letter_names[found - letters];
      ++i;
      continue;
    }
    if (c == '\\') {
      out += "\\\\";
      ++i;
      continue;
    }
    // Printable ASCII is one character in every locale gnulib supports;
    // anything else is decoded as quote_always() decodes it.
    const auto byte = static_cast<unsigned char>(c);
    const unit u = byte >= 0x20 && byte < 0x7f ? make_raw(1, false, true) : classify_other(text, i);
    const std::string_view bytes = text.substr(i, u.length);
    if (u.kind == unit_kind::octal_escape) {
      for (const char b : bytes) append_octal(out, static_cast<unsigned char>(b));
    } else {
      if (is_right_quote) out += '\\';
      out += bytes;
    }
    i += u.length;
  }
  out += right;
  return out;
}

namespace {
quoting_revision g_default_revision = quoting_revision::coreutils_9_1;
}  // namespace

void set_default_quoting_revision(quoting_revision revision) noexcept {
  g_default_revision = revision;
}

void set_name_decoding(name_decoding decoding) noexcept { g_name_decoding = decoding; }

quoting_revision default_quoting_revision() noexcept { return g_default_revision; }

}  // namespace fastwc::out
