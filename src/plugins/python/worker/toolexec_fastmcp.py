"""A stand-in for FastMCP inside toolexec's workers: `from fastmcp import FastMCP` and
`from mcp.server.fastmcp import FastMCP` load this module, so a file written for FastMCP runs
unchanged. `@mcp.tool` marks functions as toolexec's `@tool` does; resources, prompts and `run()`
do nothing here (toolexec serves the tools itself).
"""
from toolexec import mark

__all__ = ["FastMCP", "Context"]

# Resources, prompts and routes a module declared, by module name: not served by workers, warned about.
not_served = {}


class Context:
    """What a tool's `ctx: Context` parameter receives: logging goes to toolexec's logger and
    events, progress to the call's progress (`tool:progress`, MCP progress notifications when served).

    Only logging, progress and the request id are available; sampling, elicitation and
    resources need an MCP session, which a warm worker does not have.
    """

    __toolexec_context__ = True

    def __init__(self, request_id="", report=None):
        self.request_id = request_id
        self._report = report

    async def log(self, level, message, logger_name=None):
        if self._report is None:
            print(f"[{level}] {message}")
        else:
            self._report({"event": "log", "level": level, "message": str(message), **({"logger": logger_name} if logger_name else {})})

    async def debug(self, message, **_):
        await self.log("debug", message)

    async def info(self, message, **_):
        await self.log("info", message)

    async def warning(self, message, **_):
        await self.log("warning", message)

    async def error(self, message, **_):
        await self.log("error", message)

    async def report_progress(self, progress, total=None, message=None):
        if self._report is not None:
            self._report({"event": "progress", "progress": progress, **({} if total is None else {"total": total}), **({} if message is None else {"message": str(message)})})

    def __getattr__(self, name):
        raise NotImplementedError(f"Context.{name} is not available in a toolexec worker: only logging, report_progress and request_id are")


class FastMCP:
    """Records the tools of a FastMCP server file; accepts any constructor arguments."""

    def __init__(self, name=None, *args, **settings):
        self.name = name

    def tool(self, name_or_function=None, /, *, name=None, title=None, description=None, annotations=None, exclude_args=None, enabled=True, **ignored):
        def decorate(function):
            if enabled is False:
                return function
            return mark(function, name=name or (name_or_function if isinstance(name_or_function, str) else None), title=title, description=description, annotations=_annotations(annotations), exclude_args=exclude_args)
        if callable(name_or_function):
            return decorate(name_or_function)
        return decorate

    def add_tool(self, function, name=None, title=None, description=None, annotations=None, **ignored):
        mark(function, name=name, title=title, description=description, annotations=_annotations(annotations))

    def _not_served(kind):
        """A resource, prompt or route: workers serve tools only. The function is returned unchanged
        and the declaration recorded, so the host warns about it instead of dropping it silently."""

        def declare(self, *args, **kwargs):
            def record(function):
                label = args[0] if args and isinstance(args[0], str) else kwargs.get("name") or kwargs.get("uri") or getattr(function, "__name__", "?")
                line = getattr(getattr(function, "__code__", None), "co_firstlineno", None)
                not_served.setdefault(getattr(function, "__module__", ""), []).append({"kind": kind, "name": str(label), "line": line})
                return function

            if len(args) == 1 and callable(args[0]) and not kwargs:
                return record(args[0])
            return record

        return declare

    resource = _not_served("resource")
    prompt = _not_served("prompt")
    custom_route = _not_served("custom route")

    def run(self, *args, **kwargs):
        return None

    async def run_async(self, *args, **kwargs):
        return None


def _annotations(annotations):
    """FastMCP's ToolAnnotations object or a dict, as a dict of MCP annotation hints."""
    if annotations is None:
        return None
    if isinstance(annotations, dict):
        return dict(annotations)
    return {key: value for key, value in vars(annotations).items() if value is not None}

