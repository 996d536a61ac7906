"""Numbers are read and written the same under any locale: a host that sets
a comma-decimal locale (locale.setlocale, which sets the C library's) must
not make "0.5" read as 0, nor make the command line write "22,5"."""

import contextlib
import io
import locale
import unittest

import heteropipe
from heteropipe import Pipeline
from heteropipe.cli import main

# scripts/bootstrap.sh generates it (Debian's locales package).
COMMA_LOCALE = "de_DE.UTF-8"

RUNS = [
    ["--tau", "0.5,1,1,5", "--d", "0.2,0.1,0.3", "--M", "4"],
    ["--tau", "0.5,1,1,5", "--d", "0.2,0.1,0.3", "--M", "1000", "--json"],
    ["--tau", "0.5,1,1,5", "--d", "0.2,0.1,0.3", "--M", "1200", "--timeline", "blocking"],
    ["--tau", "0.5,1,1,5", "--M", "2000", "--curve", "12"],
    ["simulate", "--tau", "0.5,1,1,5", "--d", "0.25,0.1,0.3", "--M", "100", "--service", "gamma:cv=0.5", "--reps", "1200"],
    ["--tau", "0.5,1,x"],
    ["--tau", "0.5,1,1,5", "--rho", "1.5"],
]


def cli(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


class CommaLocaleTest(unittest.TestCase):
    def setUp(self):
        self.before = locale.setlocale(locale.LC_ALL)
        self.addCleanup(locale.setlocale, locale.LC_ALL, self.before)

    def use_comma_locale(self):
        try:
            locale.setlocale(locale.LC_ALL, COMMA_LOCALE)
        except locale.Error:
            self.fail(f"{COMMA_LOCALE} is not generated on this host: run scripts/bootstrap.sh")
        self.assertEqual(locale.localeconv()["decimal_point"], ",")

    def test_numbers_read_the_same(self):
        self.use_comma_locale()
        self.assertEqual(Pipeline("0.5,1,1,5").analyze(M=4)["T_async"], 22.5)
        self.assertEqual(heteropipe.parse_number_list("0.5;2.5e-3 1e2"), [0.5, 0.0025, 100.0])
        self.assertEqual(heteropipe.parse_number("0.25", "rho"), 0.25)

    def test_command_line_writes_the_same(self):
        expected = [cli(argv) for argv in RUNS]
        self.use_comma_locale()
        for argv, want in zip(RUNS, expected):
            with self.subTest(argv=argv):
                self.assertEqual(cli(argv), want)


if __name__ == "__main__":
    unittest.main()
