"""Every option of every subcommand given "--NAME=" with nothing after the
'=' is refused, never given the next argument for its value: an option that
takes a value says it is empty, a flag that it takes none. The options are
read from each subcommand's --help, so an option added later is tried too."""

import re
import unittest

from support import REPO, native_cli, run_bytes

SUBCOMMANDS = ["", "plan", "model", "simulate", "trace"]
# A word after the option that CLI11 would have taken for its value.
NEXT = str(REPO / "tests" / "cli" / "traces" / "cpu_gloo_rank-0.json")


def long_options(cli, subcommand):
    """(name, takes a value) of each long option --help lists, --help and --version aside."""
    argv = [cli] + ([subcommand] if subcommand else []) + ["--help"]
    text = run_bytes(argv).stdout.decode()
    section = text.split("\nOptions:\n", 1)[1].split("\n\n", 1)[0]
    options = []
    for line in section.splitlines():
        m = re.match(r"^  (?:-\w,)?(--[\w-]+)(?:,--[\w-]+)*(?:\s+([A-Z][A-Z_.]*)\b)?", line)
        if m and m.group(1) not in ("--help", "--version"):
            options.append((m.group(1), m.group(2) is not None))
    return options


class EmptyAfterEquals(unittest.TestCase):
    def test_every_option_of_every_subcommand(self):
        cli = native_cli(self)
        tried = 0
        for sub in SUBCOMMANDS:
            options = long_options(cli, sub)
            self.assertGreater(len(options), 0, sub)
            for name, takes_value in options:
                argv = [cli] + ([sub] if sub else []) + [name + "=", NEXT]
                with self.subTest(subcommand=sub, option=name):
                    run = run_bytes(argv)
                    self.assertEqual(run.returncode, 2)
                    self.assertEqual(run.stdout, b"")
                    position = 2 if sub else 1
                    what = ("is empty (got '%s='); give its value after the =" if takes_value
                            else "takes no value (got '%s=')") % name
                    self.assertEqual(run.stderr.decode(), "error: %s, argument %d: %s\n" % (name, position, what))
                    tried += 1
        # The main command's, plan's, model's, simulate's and trace's options, at the least these many.
        self.assertGreaterEqual(tried, 30)

    def test_after_double_dash_it_is_a_file_name(self):
        run = run_bytes([native_cli(self), "trace", NEXT, "--", "--stat="])
        self.assertEqual(run.returncode, 2)
        self.assertIn(b"'--stat='", run.stderr)
        self.assertNotIn(b"is empty", run.stderr)


if __name__ == "__main__":
    unittest.main()
