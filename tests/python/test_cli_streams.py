"""How the Python command line writes: the native run() writes through
Python objects, in chunks, and a write that fails is reported as the native
binary reports it (exit 1, one "error:" line)."""

import contextlib
import io
import os
import subprocess
import sys
import unittest

from heteropipe import _core
from heteropipe.cli import _Sink, main
from support import native_cli, run_bytes

TIMELINE = ["--tau", "0.5,1,1,5", "--d", "0.2,0.1,0.3", "--M", "2000", "--timeline", "blocking"]
UNWRITABLE = b"error: could not write the output\n"


class Recorder:
    """A sink that keeps every chunk, and can fail or be interrupted."""

    def __init__(self, fail_with=None):
        self.chunks, self.flushes, self.fail_with = [], 0, fail_with

    def write(self, chunk):
        if self.fail_with:
            raise self.fail_with
        self.chunks.append(bytes(chunk))

    def flush(self):
        self.flushes += 1

    def bytes(self):
        return b"".join(self.chunks)


def closed_pipe_run(argv):
    """argv with stdout a pipe whose reader is gone, SIGPIPE ignored (as
    Python ignores it), so a write fails with EPIPE: (exit status, stderr)."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        result = subprocess.run(argv, stdout=writer, stderr=subprocess.PIPE, timeout=120, restore_signals=False)
    finally:
        os.close(writer)
    return result.returncode, result.stderr


class Chunks(unittest.TestCase):
    def test_large_output_arrives_in_chunks_that_add_up_to_the_native_bytes(self):
        native = run_bytes([native_cli(self)] + TIMELINE)
        out, err = Recorder(), Recorder()
        self.assertEqual(_core.run_cli(TIMELINE, out, err), 0)
        self.assertEqual((out.bytes(), err.bytes()), (native.stdout, b""))
        self.assertGreater(len(out.chunks), 1)
        self.assertGreater(len(native.stdout), 100_000)
        self.assertGreaterEqual(out.flushes, 1)

    def test_bytes_and_str_arguments_are_the_same_words(self):
        words = ["--tau", "1，x", "--M", "0"]
        for argv in (words, [w.encode("utf-8") for w in words]):
            err = Recorder()
            self.assertEqual(_core.run_cli(argv, Recorder(), err), 2)
            self.assertEqual(err.bytes().decode("utf-8"),
                             "error: tau, item 2: 'x' is not a number\nerror: M: must be between 1 and 2^53 (got 0)\n")


class TextStreams(unittest.TestCase):
    def test_a_stream_without_a_byte_buffer_gets_the_decoded_text(self):
        cli = native_cli(self)
        for argv in (TIMELINE, ["--tau", "1，é", "--d", "x"], ["--help"]):
            with self.subTest(argv=argv[:2]):
                native = run_bytes([cli] + argv)
                out, err = io.StringIO(), io.StringIO()
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    code = main(argv)
                self.assertEqual((code, out.getvalue(), err.getvalue()),
                                 (native.returncode, native.stdout.decode("utf-8"), native.stderr.decode("utf-8")))

    def test_a_character_split_between_chunks_is_decoded_whole(self):
        text = io.StringIO()
        sink = _Sink(text)
        for chunk in (b"caf\xc3", b"\xa9 \xe3\x80", b"\x81 ok\n"):
            sink.write(chunk)
        sink.flush()
        self.assertEqual(text.getvalue(), "caf\u00e9 \u3001 ok\n")

    def test_text_printed_before_comes_first(self):
        out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
        with contextlib.redirect_stdout(out):
            print("before")
            self.assertEqual(main(["--version"]), 0)
        self.assertEqual(out.buffer.getvalue(), b"before\nheteropipe 0.1.0\n")


class FailedWrites(unittest.TestCase):
    def test_a_failing_sink_fails_the_run_as_a_failing_stdout_does(self):
        for failure in (BrokenPipeError(32, "Broken pipe"), OSError(28, "No space left on device"),
                        ValueError("I/O operation on closed file.")):
            with self.subTest(failure=type(failure).__name__):
                err = Recorder()
                self.assertEqual(_core.run_cli(["--tau", "1,2"], Recorder(failure), err), 1)
                self.assertEqual(err.bytes(), UNWRITABLE)

    def test_an_interrupt_is_raised_again(self):
        err = Recorder()
        with self.assertRaises(KeyboardInterrupt):
            _core.run_cli(TIMELINE, Recorder(KeyboardInterrupt()), err)
        self.assertEqual(err.bytes(), UNWRITABLE)

    def test_closed_pipe_like_the_native_binary(self):
        native = closed_pipe_run([native_cli(self)] + TIMELINE)
        self.assertEqual(native, (1, UNWRITABLE))
        self.assertEqual(closed_pipe_run([sys.executable, "-m", "heteropipe"] + TIMELINE), native)
        # Small output fails only at the final flush; still no traceback.
        self.assertEqual(closed_pipe_run([sys.executable, "-m", "heteropipe", "--tau", "1,2"]), native)


if __name__ == "__main__":
    unittest.main()
