"""Mark Python functions as toolexec tools: `from toolexec import tool`.

toolexec puts this module on its workers' path, so a tool file needs nothing installed. The mark
changes nothing about the function: it stays an ordinary function, callable and testable as before.

    from toolexec import tool

    @tool
    def word_count(text: str) -> int:
        '''Count the words in a text.'''
        return len(text.split())

    @tool(name="fetch_page", parallel=True, timeout=10)
    def fetch(url: str) -> str: ...
"""

__all__ = ["tool"]

# Marked functions by the name of the module that defines them, in the order they were marked.
_marked = {}


def mark(function, *, name=None, title=None, description=None, parallel=None, timeout=None, annotations=None, exclude_args=None):
    """Record `function` as a tool of its own module; the worker reads the record after importing it."""
    if not callable(function):
        raise TypeError(f"@tool applies to a function, got {type(function).__name__}")
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0):
        raise ValueError(f"@tool timeout is in seconds and must be a positive number, got {timeout!r}")
    if parallel is not None and not isinstance(parallel, bool):
        raise ValueError(f"@tool parallel must be True or False, got {parallel!r}")
    record = {
        "function": function,
        "name": name or function.__name__,
        "title": title,
        "description": description,
        "parallel": parallel,
        "timeout": timeout,
        "annotations": annotations,
        "exclude_args": list(exclude_args or ()),
    }
    _marked.setdefault(function.__module__, []).append(record)
    return function


def tool(function=None, /, *, name=None, title=None, description=None, parallel=None, timeout=None):
    """Mark a function as a tool: `@tool`, `@tool("name")` or `@tool(name=..., timeout=5)`.

    name: the tool's name (default: the function's). description: for the model (default: the
    docstring). parallel: whether calls may overlap on several workers. timeout: seconds per call.
    """
    if isinstance(function, str):  # @tool("name"), as LangChain spells it
        name, function = function, None
    options = {"name": name, "title": title, "description": description, "parallel": parallel, "timeout": timeout}
    if function is not None:
        return mark(function, **options)
    return lambda decorated: mark(decorated, **options)


def marked_in(module_name):
    """The records of the functions marked in one module, in source order."""
    return _marked.get(module_name, [])
