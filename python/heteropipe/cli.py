"""``heteropipe`` and ``python -m heteropipe``: the native command line itself
(heteropipe::cli::run, compiled into the extension), so both give the native
binary's bytes, exit status and errors for the same arguments."""

from __future__ import annotations

import codecs
import os
import sys
from typing import Optional, Sequence

from . import _core

__all__ = ["main"]


class _Sink:
    """Where the command line's bytes go: the stream's byte buffer when it has
    one, so the bytes are exactly the native binary's; else its text
    ``write`` (``io.StringIO``, a redirected stream), decoded as UTF-8 across
    chunk boundaries. Records whether a write failed."""

    def __init__(self, stream) -> None:
        self.failed = False
        self._stream = stream
        self._bytes = getattr(stream, "buffer", None)
        self._decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")
        if self._bytes is not None:
            try:
                stream.flush()  # text already written comes first
            except Exception:
                pass  # then the first write fails, and says so

    def write(self, chunk: bytes) -> None:
        if self._bytes is not None:
            self._attempt(self._bytes.write, chunk)
        else:
            self._attempt(self._stream.write, self._decoder.decode(chunk))

    def flush(self) -> None:
        if self._bytes is not None:
            self._attempt(self._bytes.flush)
        else:
            self._attempt(self._stream.write, self._decoder.decode(b"", final=True))
            self._attempt(self._stream.flush)

    def _attempt(self, action, *args) -> None:
        try:
            action(*args)
        except BaseException:
            self.failed = True
            raise


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the command line on ``argv`` (default ``sys.argv[1:]``) and
    returns its exit status: 0 success, 2 bad input or usage, 1 the output
    could not be written."""
    words = [os.fsencode(word) for word in (sys.argv[1:] if argv is None else argv)]
    out, err = _Sink(sys.stdout), _Sink(sys.stderr)
    status = _core.run_cli(words, out, err)
    if out.failed:
        _drop_unwritten(sys.stdout)
    return status


def _drop_unwritten(stream) -> None:
    """After a failed write (a closed pipe), point the stream's descriptor at
    /dev/null, so that Python's own flush at exit does not fail a second time
    and print a traceback: the command's one "error:" line is the report."""
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, descriptor)
    finally:
        os.close(null)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
