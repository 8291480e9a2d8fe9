// SPDX-License-Identifier: GPL-3.0-or-later
// CountOptions for the locale and environment of the running process: the
// same two questions wc asks (MB_CUR_MAX, POSIXLY_CORRECT), plus the codeset
// that decides whether fastwc's own UTF-8 decoder may replace mbrtowc.
#include "fastwc/options.hpp"

#include <langinfo.h>

#include <cstdlib>
#include <cstring>

namespace fastwc {

CountOptions options_for_current_locale(Selection selection, WordRule word_rule) {
  CountOptions options;
  options.selection = selection;
  options.word_rule = word_rule;
  if (MB_CUR_MAX == 1)
    options.encoding = Encoding::single_byte;
  else if (std::strcmp(nl_langinfo(CODESET), "UTF-8") == 0)
    options.encoding = Encoding::utf8;
  else
    options.encoding = Encoding::other_multibyte;
  // wc tests presence only: POSIXLY_CORRECT= (empty) counts as set.
  options.nbsp_separates_words = std::getenv("POSIXLY_CORRECT") == nullptr;
  return options;
}

}  // namespace fastwc
