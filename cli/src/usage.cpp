// CLI11 says what went wrong in its own words, one message per kind of
// exception; these are reworded from what the exception and the arguments
// say, so that no line of CLI11's own reaches the user.
#include "usage.hpp"

#include <algorithm>
#include <cstddef>
#include <optional>

#include "heteropipe/text/numbers.hpp"

namespace heteropipe::cli {
namespace {

// text::quoted, named apart from std::quoted (which argument-dependent lookup finds for a std::string).
std::string echo(const std::string& typed) { return text::quoted(typed); }

std::vector<CLI::App*> apps_of(CLI::App& app) {
  std::vector<CLI::App*> apps{&app};
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) apps.push_back(sub);
  return apps;
}

// Whether argument `arg` gives option `o`: its name, or its name, '=' and a value.
bool gives(const CLI::Option& o, const std::string& arg) {
  if (arg.size() < 2 || arg[0] != '-') return false;
  return o.check_name(arg.substr(0, arg.find('=')));
}

// The option CLI11 names by `name` (its long name), in the app or a subcommand.
const CLI::Option* option_named(CLI::App& app, const std::string& name) {
  for (CLI::App* a : apps_of(app)) {
    for (const CLI::Option* o : a->get_options()) {
      if (o->get_name() == name) return o;
    }
  }
  return nullptr;
}

// The 1-based positions of the arguments that give option `o`.
std::vector<std::size_t> positions(const CLI::Option& o, const std::vector<std::string>& args) {
  std::vector<std::size_t> out;
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (gives(o, args[k])) out.push_back(k + 1);
  }
  return out;
}

std::string argument(std::size_t position) { return "argument " + std::to_string(position); }

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

// Edits (insert, delete, replace, swap two neighbours) from a to b: a typo's distance from a name.
std::size_t edits(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> t(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) t[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) t[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      t[i][j] = std::min({t[i - 1][j] + 1, t[i][j - 1] + 1, t[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) t[i][j] = std::min(t[i][j], t[i - 2][j - 2] + 1);
    }
  }
  return t[a.size()][b.size()];
}

// The one name of `names` that `typed` most likely meant: the same name in another case, else the
// only name it begins (--js: --json), else the only name one edit away per three letters typed
// (--tua: --tau); none when no name, or more than one, is that close.
std::optional<std::string> meant(const std::string& typed, const std::vector<std::string>& names) {
  // Names are short: a word of more than 64 letters meant none of them, and is never compared
  // letter by letter (the table of edits grows with its length).
  if (typed.empty() || typed.size() > 64) return std::nullopt;
  const std::string t = lower(typed);
  auto only = [&](auto&& close) -> std::optional<std::string> {
    std::optional<std::string> found;
    for (const std::string& n : names) {
      if (!close(lower(n))) continue;
      if (found && *found != n) return std::string();  // two names: no guess
      found = n;
    }
    return found;
  };
  for (auto rule : {0, 1, 2}) {
    auto hit = only([&](const std::string& n) {
      if (rule == 0) return n == t;
      if (rule == 1) return t.size() >= 2 && n.size() > t.size() && n.compare(0, t.size(), t) == 0;
      return edits(t, n) <= std::max<std::size_t>(1, t.size() / 3);
    });
    if (hit) return hit->empty() ? std::nullopt : hit;
  }
  return std::nullopt;
}

// ", did you mean --M?" for an option typed wrong in `a` ("--m", "--tua", "--js=1"), or for a
// word where `a`'s subcommand goes ("simulat"); "" when nothing is that close.
std::string suggestion(CLI::App& a, const std::string& extra, bool option) {
  std::vector<std::string> names;
  if (option) {
    const std::string typed = extra.substr(0, extra.find('='));
    const std::size_t dashes = typed.compare(0, 2, "--") == 0 ? 2 : 1;
    for (const CLI::Option* o : a.get_options()) {
      for (const std::string& n : o->get_lnames()) names.push_back(n);
    }
    const auto hit = meant(typed.substr(dashes), names);
    return hit && "--" + *hit != typed ? ", did you mean --" + *hit + "?" : std::string();
  }
  for (const CLI::App* sub : a.get_subcommands([](CLI::App*) { return true; })) names.push_back(sub->get_name());
  const auto hit = meant(extra, names);
  return hit && *hit != extra ? ", did you mean " + *hit + "?" : std::string();
}

// The option's name as the message begins with it ("--tau: ..."), or none.
std::optional<std::string> leading_name(const std::string& message) {
  const std::size_t colon = message.find(": ");
  if (colon == std::string::npos || message.compare(0, 1, "-") != 0) return std::nullopt;
  return message.substr(0, colon);
}

std::string for_option(CLI::App& app, const std::string& message, const std::vector<std::string>& args,
                       const std::string& problem) {
  const auto name = leading_name(message);
  const CLI::Option* o = name ? option_named(app, *name) : nullptr;
  if (!o) return std::string();
  const auto at = positions(*o, args);
  std::string place = *name;
  if (problem == "repeated" && at.size() >= 2) {
    return place + ", " + argument(at[1]) + ": is given a second time (got '" + echo(args[at[1] - 1]) +
           "'); give each option once";
  }
  if (problem == "repeated") return place + ": is given more than once; give each option once";
  if (!at.empty()) place += ", " + argument(at.back());
  if (problem == "value") return place + ": needs a value after it";
  if (problem == "flag value") {
    return place + ": takes no value (got '" + echo(at.empty() ? *name : args[at.back() - 1]) + "')";
  }
  return std::string();
}

// A subcommand's argument without a dash (FILE) that was not given: the subcommand it belongs to
// and what it is, in the words of its help, since every subcommand names its own FILE so (and one
// word typed after another subcommand's options starts this one: simulate ... plan).
std::optional<std::string> missing_argument(CLI::App& app, const std::string& name) {
  if (name.empty() || name[0] == '-') return std::nullopt;
  for (CLI::App* sub : app.get_subcommands()) {
    for (const CLI::Option* o : sub->get_options()) {
      if (o->get_name() != name || !o->get_required() || o->count() != 0) continue;
      std::string what = o->get_description();
      if (!what.empty() && what[0] >= 'A' && what[0] <= 'Z') what[0] = static_cast<char>(what[0] - 'A' + 'a');
      const std::string command = sub->get_name();
      return command + ": " + name + " is missing: " + what + " (see heteropipe " + command + " --help)";
    }
  }
  return std::nullopt;
}

}  // namespace

void refuse_repeated_flags(CLI::App& app) {
  for (CLI::App* a : apps_of(app)) {
    for (CLI::Option* o : a->get_options()) {
      if (o == a->get_help_ptr() || o == a->get_version_ptr() || o->get_items_expected_max() != 0) continue;
      o->multi_option_policy(CLI::MultiOptionPolicy::Throw)->disable_flag_override();
    }
  }
}

std::optional<std::string> empty_after_equals(CLI::App& app, const std::vector<std::string>& args) {
  // The options of the subcommand named first, else the program's own.
  CLI::App* scope = &app;
  if (!args.empty()) {
    for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
      if (sub->check_name(args.front())) scope = sub;
    }
  }
  for (std::size_t k = 0; k < args.size(); ++k) {
    const std::string& arg = args[k];
    if (arg == "--") break;  // the rest are files, whatever their names
    if (arg.size() < 4 || arg.compare(0, 2, "--") != 0 || arg.find('=') != arg.size() - 1) continue;
    const std::string name = arg.substr(0, arg.size() - 1);
    for (const CLI::Option* o : scope->get_options()) {
      if (!o->check_name(name)) continue;
      // A flag given "=" and nothing is given a value, as --json=yes is (CLI11 takes it for the flag).
      const std::string place = name + ", " + argument(k + 1);
      if (o->get_items_expected_max() == 0) return place + ": takes no value (got '" + echo(arg) + "')";
      return place + ": is empty (got '" + echo(arg) + "'); give its value after the =";
    }
  }
  return std::nullopt;
}

std::optional<std::string> option_as_value(CLI::App& app, const std::vector<std::string>& args) {
  CLI::App* scope = &app;
  if (!args.empty()) {
    for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
      if (sub->check_name(args.front())) scope = sub;
    }
  }
  // Whether an argument is an option's name rather than a value: "--" and
  // more, or a short name of some option of the program (-h), never a
  // number (-1) nor "-" (standard input).
  const auto looks_like_option = [&app](const std::string& arg) {
    if (arg.size() > 2 && arg.compare(0, 2, "--") == 0) return true;
    if (arg.size() < 2 || arg[0] != '-' || arg[1] == '-') return false;
    for (CLI::App* a : apps_of(app)) {
      for (const CLI::Option* o : a->get_options()) {
        for (const std::string& s : o->get_snames()) {
          if (arg == "-" + s) return true;
        }
      }
    }
    return false;
  };
  for (std::size_t k = 0; k + 1 < args.size(); ++k) {
    const std::string& arg = args[k];
    if (arg == "--") break;  // the rest are files, whatever their names
    if (arg.size() < 2 || arg[0] != '-' || arg.find('=') != std::string::npos) continue;
    for (const CLI::Option* o : scope->get_options()) {
      if (o->get_items_expected_min() < 1 || !o->check_name(arg)) continue;
      if (looks_like_option(args[k + 1])) {
        return arg + ", " + argument(k + 1) + ": needs a value after it, not an option (got '" + echo(args[k + 1]) + "')";
      }
      ++k;  // its value, whatever it looks like, is no option's name
      break;
    }
  }
  return std::nullopt;
}

std::string usage_error(CLI::App& app, const CLI::ParseError& error, const std::vector<std::string>& args) {
  const std::string message = error.what();
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&error)) {
    const char* problem = message.find("At Most") != std::string::npos        ? "repeated"
                          : message.find("disallowed flag override") != std::string::npos ? "flag value"
                                                                                           : "value";
    // CLI11 names a flag override "NAME was given ...", with no colon.
    std::string named = message;
    if (std::string(problem) == "flag value") named = "--" + message.substr(0, message.find(' ')) + ": ";
    std::string line = for_option(app, named, args, problem);
    if (!line.empty()) return line;
  }
  if (dynamic_cast<const CLI::ExtrasError*>(&error)) {
    // The first argument no option or subcommand took, at the last place it
    // was typed (an earlier copy may be an option's value).
    for (CLI::App* a : apps_of(app)) {
      std::vector<std::string> extras = a->remaining();
      if (extras.empty()) continue;
      // "--" ends the options; what follows it is what is too many.
      const bool after_dashes = extras.size() > 1 && extras.front() == "--";
      if (after_dashes) extras.erase(extras.begin());
      const std::string& extra = extras.front();
      std::size_t position = 0;
      for (std::size_t k = 0; k < args.size(); ++k) {
        if (args[k] == extra) position = k + 1;
      }
      const bool option = extra.size() > 1 && extra[0] == '-';
      // A guess only where the typo stands: an option among the options, or the first word, where a
      // subcommand goes.
      const std::string said = (position ? argument(position) + ": '" : "'") + echo(extra) +
                               (option ? "' is no option here" : "' is one argument too many");
      // "heteropipe help", as other tools take it, asks for the help.
      if (!after_dashes && lower(extra) == "help") return said + ", did you mean --help?";
      const std::string guess =
          after_dashes || (!option && (a != &app || position != 1)) ? std::string() : suggestion(*a, extra, option);
      return said + guess + " (see --help)";
    }
  }
  if (dynamic_cast<const CLI::RequiredError*>(&error) && message.find(" is required") != std::string::npos) {
    const std::string name = message.substr(0, message.find(" is required"));
    if (auto line = missing_argument(app, name)) return *line;
    return name + ": is missing (see --help)";
  }
  // Any other parse error (none is known to reach here): its kind, and CLI11's words quoted.
  return "arguments: " + error.get_name() + " ('" + echo(message) + "'; see --help)";
}

}  // namespace heteropipe::cli
