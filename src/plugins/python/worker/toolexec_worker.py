"""toolexec's warm Python worker: imports tool modules once and calls their functions.

Frames travel on file descriptors 3 (from the host) and 4 (to the host), so a tool's print()
never corrupts the protocol: a frame is a 4-byte big-endian length and that many bytes of JSON.
Python-level stdout of a call is returned with its answer as the call's logs.
"""
import contextlib
import contextvars
import importlib.util
import inspect
import io
import json
import os
import struct
import sys
import traceback
import typing

import toolexec
import toolexec_imports
from toolexec_convert import InvalidArguments, NotSerializable, from_json, is_context, is_json_native, json_form, to_json_safe
from toolexec_schema import function_schemas

_WORKER_FOLDER = os.path.dirname(os.path.realpath(__file__))
_WORKER_FILES = {os.path.join(_WORKER_FOLDER, name) for name in os.listdir(_WORKER_FOLDER) if name.endswith(".py")} | {os.path.join(_WORKER_FOLDER, "toolexec", "__init__.py")}
_modules = {}
_loop = None
_exit_after_answer = False


def _read_exactly(stream, size):
    data = stream.read(size)  # a buffered reader: one call, usually one system call
    return data if data is not None and len(data) == size else None


# Built once: json.dumps with options builds an encoder per call.
_encoder = json.JSONEncoder(ensure_ascii=False, allow_nan=False, default=json_form)
_decoder = json.JSONDecoder()


def _encode(answer):
    """An answer as JSON bytes. A result with no JSON form becomes an INVALID_OUTPUT answer that
    says where in the result the first such value is (the slow walk runs only then)."""
    try:
        return _encoder.encode(answer).encode("utf-8")
    except (TypeError, ValueError, RecursionError):
        if "value" not in answer:
            raise
    try:
        answer["value"] = to_json_safe(answer["value"])
        return json.dumps(answer, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except NotSerializable as error:
        message = str(error)
    except RecursionError:
        message = "result refers to itself, which JSON cannot hold"
    failure = {"id": answer["id"], "ok": False, "code": "INVALID_OUTPUT", "message": message}
    if "logs" in answer:
        failure["logs"] = answer["logs"]
    return json.dumps(failure, ensure_ascii=False).encode("utf-8")


def _write_frame(fd, body):
    data = struct.pack(">I", len(body)) + body
    while data:
        written = os.write(fd, data)
        data = data[written:]


def _own_frames(tb):
    """The traceback without the worker's frames nor asyncio's: what the tool's author wrote."""
    frames = [frame for frame in traceback.extract_tb(tb) if os.path.realpath(frame.filename) not in _WORKER_FILES and "/asyncio/" not in frame.filename]
    return frames


def _format_exception(error):
    lines = traceback.format_list(_own_frames(error.__traceback__))
    return "Traceback (most recent call last):\n" + "".join(lines) + "".join(traceback.format_exception_only(type(error), error))


def _import_error(path, error):
    """Where an import failed: the innermost frame inside the module's own file, or SyntaxError's place."""
    line = None
    if isinstance(error, SyntaxError) and error.filename and os.path.realpath(error.filename) == os.path.realpath(path):
        line = error.lineno
    else:
        for frame in _own_frames(error.__traceback__):
            if os.path.realpath(frame.filename) == os.path.realpath(path):
                line = frame.lineno
    message = "".join(traceback.format_exception_only(type(error), error)).strip()
    return {"ok": False, "code": "IMPORT_FAILED", "type": type(error).__name__, "message": message, "line": line, "traceback": _format_exception(error)}


def _load(request):
    """The module `request` is about: imported already, or imported now from `realPath`, the path the
    host found contained in tools/ just before (never from the configured one, a link may change)."""
    path = request["module"]
    module = _modules.get(path)
    if module is not None:
        return module, None
    if "realPath" not in request:
        return None, {"ok": False, "code": "IMPORT_FAILED", "type": "RuntimeError", "message": f"{os.path.basename(path)} was not checked by the host before its import", "line": None}
    source = request["realPath"]
    folder = os.path.dirname(source)
    if folder not in sys.path:
        sys.path.insert(0, folder)  # sibling modules import as they would from a script
    name = os.path.splitext(os.path.basename(path))[0]
    if name in sys.modules:
        name = "toolexec_tool_" + str(len(_modules)) + "_" + name
    spec = importlib.util.spec_from_file_location(name, source)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    logs = io.StringIO()
    try:
        with contextlib.redirect_stdout(logs):
            spec.loader.exec_module(module)
    except BaseException as error:  # SystemExit at import is a broken module too
        del sys.modules[name]
        return None, _import_error(source, error)
    _modules[path] = module
    return module, None


def _function(module, path, name):
    function = getattr(module, name, None)
    if function is None or not callable(function):
        return None, {"ok": False, "code": "IMPORT_FAILED", "type": "AttributeError", "message": f"{os.path.basename(path)} has no function {name!r}", "line": None}
    return function, None


def _schema_failure(name, function, error):
    line = getattr(getattr(function, "__code__", None), "co_firstlineno", None)
    return {"ok": False, "code": "IMPORT_FAILED", "type": type(error).__name__, "message": f"Cannot derive a schema for {name}: {error}", "line": line}


# How many of a module's function names a "not found" answer lists for the host's "did you mean".
_MAX_CANDIDATES = 1000


def _candidates(module):
    """The public functions of a module: what a mistyped entry most likely meant."""
    names = [name for name, value in vars(module).items() if not name.startswith("_") and callable(value) and not isinstance(value, type)]
    return names[:_MAX_CANDIDATES]


def _describe(request):
    """Each named function's schemas, or why that function alone cannot be a tool: one bad entry
    must not take its module's other tools with it."""
    module, failure = _load(request)
    if failure:
        return failure
    tools = {}
    failures = {}
    for name in request["functions"]:
        function, failure = _function(module, request["module"], name)
        if failure:
            failure["code"] = "NOT_FOUND"
            failure["candidates"] = _candidates(module)
            failures[name] = failure
            continue
        try:
            tools[name] = function_schemas(function)
            tools[name]["async"] = inspect.iscoroutinefunction(function)
        except Exception as error:
            failures[name] = _schema_failure(name, function, error)
    return {"ok": True, "tools": tools, "failures": failures}


def _discover(request):
    """The functions a module marked with @tool or @mcp.tool, in source order, with their schemas."""
    module, failure = _load(request)
    if failure:
        return failure
    tools = []
    failures = []
    for record in toolexec.marked_in(module.__name__):
        function = record["function"]
        try:
            described = function_schemas(function, exclude=record["exclude_args"])
        except Exception as error:
            # That function alone is left out: the module's other marked functions are still tools.
            failure = _schema_failure(record["name"], function, error)
            failure["name"] = record["name"]
            failures.append(failure)
            continue
        described["name"] = record["name"]
        described["async"] = inspect.iscoroutinefunction(function)
        described["line"] = getattr(getattr(function, "__code__", None), "co_firstlineno", None)
        if record["description"]:
            described["description"] = record["description"]
        if record["timeout"] is not None:
            described["timeoutMs"] = max(1, round(record["timeout"] * 1000))
        for key in ("title", "parallel", "annotations"):
            if record[key] is not None:
                described[key] = record[key]
        tools.append(described)
    # Both FastMCP names load the stand-in, each as its own module: either may hold the module's declarations.
    declared = [item for name in ("fastmcp", "mcp.server.fastmcp") for item in getattr(sys.modules.get(name), "not_served", {}).get(module.__name__, [])]
    return {"ok": True, "tools": tools, "failures": failures, "notServed": declared}


_plans = {}


def _plan(function):
    """Per function, once: each parameter's annotation and whether it is positional-only, and
    the parameters that take a FastMCP `Context` (given by the worker, not by the caller)."""
    plan = _plans.get(function)
    if plan is None:
        try:
            hints = typing.get_type_hints(function)
        except Exception:
            hints = {}
        parameters = inspect.signature(function).parameters
        order = list(parameters)
        annotations = {
            # The annotation, None when JSON already gives its type; the position of a positional-only parameter.
            name: (None if is_json_native(hints.get(name)) else hints.get(name), order.index(name) if parameter.kind is inspect.Parameter.POSITIONAL_ONLY else None)
            for name, parameter in parameters.items()
        }
        context_types = {name: hints[name] for name in parameters if is_context(hints.get(name))}
        # No parameter to shape, to place or to give: the arguments go to the function as they came.
        as_they_come = not context_types and all(hint is None and position is None for hint, position in annotations.values())
        plan = (annotations, context_types, as_they_come)
        _plans[function] = plan
    return plan


def _arguments(function, request):
    annotations, context_types, as_they_come = _plan(function)
    if as_they_come:
        return (), request["arguments"]
    positional, keywords = [], {}
    for name, value in request["arguments"].items():
        hint, position = annotations.get(name, (None, None))
        try:
            converted = value if hint is None else from_json(value, hint)
        except InvalidArguments as error:
            raise InvalidArguments(f"{name}: {error}") from None
        if position is not None:
            positional.append((position, converted))
        else:
            keywords[name] = converted
    for name in context_types:
        keywords[name] = context_types[name](request.get("executionId", ""), lambda event, request_id=request["id"]: send(request_id, event))
    return [value for _, value in sorted(positional)], keywords


def _marked_function(module, path, name):
    for record in toolexec.marked_in(module.__name__):
        if record["name"] == name:
            return record["function"], None
    return None, {"ok": False, "code": "IMPORT_FAILED", "type": "LookupError", "message": f"{os.path.basename(path)} no longer marks a tool named {name!r}", "line": None}


def _callable(request):
    """The function a call request names, or the answer saying why there is none."""
    module, failure = _load(request)
    if failure:
        return None, failure
    if "tool" in request:
        return _marked_function(module, request["module"], request["tool"])
    return _function(module, request["module"], request["function"])


def _failure(error):
    """A call's exception as its answer (the call's logs added by the caller)."""
    global _exit_after_answer
    if isinstance(error, InvalidArguments):
        return {"ok": False, "code": "INVALID_INPUT", "message": str(error)}
    if isinstance(error, MemoryError):
        # Under the worker's memory limit: answer, then go, so the next call gets a fresh worker.
        _exit_after_answer = True
        return {"ok": False, "code": "MEMORY_LIMIT", "message": "MemoryError"}
    return {"ok": False, "code": "TOOL_FAILED", "type": type(error).__name__, "message": "".join(traceback.format_exception_only(type(error), error)).strip(), "traceback": _format_exception(error)}


def _call(request):
    global _loop
    function, failure = _callable(request)
    if failure:
        return failure
    sys.stdout = _printed  # again: a tool may have replaced it
    try:
        positional, keywords = _arguments(function, request)
        result = function(*positional, **keywords)
        if inspect.isawaitable(result):
            if _loop is None:
                import asyncio  # here, not at start: it is the worker's costliest import (~20 ms)
                _loop = asyncio.new_event_loop()
            result = _loop.run_until_complete(result)
    except BaseException as error:  # SystemExit and KeyboardInterrupt raised by a tool are its failures
        return _with_logs(_failure(error))
    return _with_logs({"ok": True, "value": result})


async def call_concurrently(request):
    """A call on the worker's event loop, overlapping others: an `async def` tool marked parallel.
    A sync function reached this way runs inline (the host sends such calls only to a worker it
    holds alone). Cancelled by the host (deadline, cancel): answers CANCELLED."""
    import asyncio
    _output.set(io.StringIO())  # this task's own logs: prints of overlapping calls never mix
    function, failure = _callable(request)
    if failure:
        return failure
    sys.stdout = _printed
    try:
        positional, keywords = _arguments(function, request)
        result = function(*positional, **keywords)
        if inspect.isawaitable(result):
            result = await result
    except asyncio.CancelledError:
        return _with_logs({"ok": False, "code": "CANCELLED", "message": "cancelled by the host"})
    except BaseException as error:
        return _with_logs(_failure(error))
    return _with_logs({"ok": True, "value": result})


class _CallOutput(io.TextIOBase):
    """sys.stdout while tools run: each call's prints go to that call's buffer (a context variable,
    so overlapping calls on the event loop keep theirs apart)."""

    def writable(self):
        return True

    def write(self, text):
        return _output.get().write(text)

    def flush(self):
        pass


# What tools print (Python-level stdout): the logs of the call under way, taken with its answer.
_output = contextvars.ContextVar("toolexec_output", default=io.StringIO())
_printed = _CallOutput()


def _with_logs(answer):
    buffer = _output.get()
    if buffer.tell() > 0:
        answer["logs"] = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
    return answer


def send(request_id, event):
    """An intermediate frame of a call under way: progress or a log line from a FastMCP Context."""
    event["id"] = request_id
    _write_frame(4, _encode(event))


def _limit_memory(arguments):
    """`--memory-limit-mb N`: cap the address space, so an allocation past it raises MemoryError."""
    if "--memory-limit-mb" in arguments:
        import resource
        limit = int(arguments[arguments.index("--memory-limit-mb") + 1]) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def next_request(incoming):
    """The next request, or None when the host closed the pipe."""
    header = _read_exactly(incoming, 4)
    if header is None:
        return None
    body = _read_exactly(incoming, struct.unpack(">I", header)[0])
    return None if body is None else _decoder.decode(body.decode("utf-8"))


def answer(request):
    """Handle one request at once and send its answer; False when the worker must go after it."""
    operation = request.get("op")
    handler = _describe if operation == "describe" else _discover if operation == "discover" else _call
    result = handler(request)
    result["id"] = request["id"]
    _write_frame(4, _encode(result))
    return not _exit_after_answer


def main():
    _limit_memory(sys.argv[1:])
    root = os.environ.get("TOOLEXEC_ROOT")
    toolexec_imports.install(os.path.join(root, "tools") if root else None)
    incoming = os.fdopen(3, "rb")
    sys.stdout = _printed
    _write_frame(4, _encode({"ready": True, "pid": os.getpid(), "python": sys.version.split()[0]}))
    while True:
        request = next_request(incoming)
        if request is None:
            return  # the host closed the pipe: time to go
        if request.get("concurrent"):
            # The first overlapping call: from now on the event loop serves this worker.
            import toolexec_concurrency
            toolexec_concurrency.serve(sys.modules[__name__], incoming, request)
            return
        if not answer(request):
            return


if __name__ == "__main__":
    main()
