"""JSON Schema from a Python function's type hints and docstring, in the spirit of FastMCP.

Shipped with toolexec and run inside the warm worker: the host never parses Python itself.
Nested dataclasses and TypedDicts are inlined (no $ref), since several model providers refuse $ref.
"""
import dataclasses
import datetime
import decimal
import enum
import inspect
import re
import types
import typing

from toolexec_convert import is_context, is_pydantic_model, is_uuid_type

_SCALARS = {str: "string", int: "integer", float: "number", bool: "boolean"}
_SECTION_ENDS = re.compile(r"^(Returns?|Yields?|Raises?|Examples?|Notes?|See Also|Attributes?|References?)\s*:?\s*$")


def _is_typed_dict(tp):
    return isinstance(tp, type) and issubclass(tp, dict) and hasattr(tp, "__total__")


def type_schema(tp, seen=(), mode="validation"):
    """The JSON Schema of one annotation; {} (anything) for what has no JSON form."""
    if tp is inspect.Parameter.empty or tp is typing.Any or tp is object:
        return {}
    if tp is None or tp is type(None):
        return {"type": "null"}
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Annotated:
        schema = dict(type_schema(args[0], seen, mode))
        for extra in args[1:]:
            if isinstance(extra, str):
                schema["description"] = extra
        return schema
    if tp in _SCALARS:
        return {"type": _SCALARS[tp]}
    if tp is datetime.datetime:
        return {"type": "string", "format": "date-time"}
    if tp is datetime.date:
        return {"type": "string", "format": "date"}
    if tp is datetime.time:
        return {"type": "string", "format": "time"}
    if tp is decimal.Decimal:
        return {"type": "string", "description": "A decimal number, as text to keep its precision"}
    if is_uuid_type(tp):
        return {"type": "string", "format": "uuid"}
    if origin is typing.Union or origin is getattr(types, "UnionType", None):
        return {"anyOf": [type_schema(arg, seen, mode) for arg in args]}
    if origin is typing.Literal:
        values = list(args)
        kinds = {type(value) for value in values}
        schema = {"enum": values}
        if len(kinds) == 1 and next(iter(kinds)) in _SCALARS:
            schema = {"type": _SCALARS[next(iter(kinds))], "enum": values}
        return schema
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        values = [member.value for member in tp]
        kinds = {type(value) for value in values}
        if len(kinds) == 1 and next(iter(kinds)) in _SCALARS:
            return {"type": _SCALARS[next(iter(kinds))], "enum": values}
        return {"enum": values}
    if origin in (list, typing.List) or tp in (list,) or origin in _sequence_origins():
        return {"type": "array", "items": type_schema(args[0], seen, mode)} if args else {"type": "array"}
    if origin in (set, frozenset) or tp in (set, frozenset):
        schema = {"type": "array", "uniqueItems": True}
        if args:
            schema["items"] = type_schema(args[0], seen, mode)
        return schema
    if origin is tuple or tp is tuple:
        if not args:
            return {"type": "array"}
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": type_schema(args[0], seen, mode)}
        items = [type_schema(arg, seen, mode) for arg in args]
        return {"type": "array", "prefixItems": items, "minItems": len(items), "maxItems": len(items)}
    if origin in (dict, typing.Dict) or tp is dict or origin in _mapping_origins():
        schema = {"type": "object"}
        if len(args) == 2:
            schema["additionalProperties"] = type_schema(args[1], seen, mode)
        return schema
    if tp in seen:
        return {"type": "object"}  # a recursive type: inlining stops here
    if is_pydantic_model(tp):
        return pydantic_schema(tp, mode)
    if _is_typed_dict(tp):
        hints = typing.get_type_hints(tp, include_extras=True)
        required = sorted(getattr(tp, "__required_keys__", hints.keys()))
        schema = {"type": "object", "properties": {name: type_schema(hint, seen + (tp,), mode) for name, hint in hints.items()}}
        if required:
            schema["required"] = required
        schema["additionalProperties"] = False
        return _with_title(schema, tp)
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        hints = typing.get_type_hints(tp, include_extras=True)
        properties, required = {}, []
        for field in dataclasses.fields(tp):
            prop = type_schema(hints.get(field.name, field.type), seen + (tp,), mode)
            if field.default is not dataclasses.MISSING:
                _add_default(prop, field.default)
            elif field.default_factory is dataclasses.MISSING:
                required.append(field.name)
            properties[field.name] = prop
        schema = {"type": "object", "properties": properties}
        if required:
            schema["required"] = required
        schema["additionalProperties"] = False
        return _with_title(schema, tp)
    return {}


def pydantic_schema(model, mode="validation"):
    """A pydantic model's own schema, its `$defs` inlined like the rest (a recursive model stops at "object")."""
    schema = model.model_json_schema(mode=mode)
    definitions = schema.pop("$defs", {})

    def inline(node, expanding):
        if isinstance(node, list):
            return [inline(item, expanding) for item in node]
        if not isinstance(node, dict):
            return node
        reference = node.get("$ref")
        if isinstance(reference, str) and reference.startswith("#/$defs/"):
            name = reference[len("#/$defs/"):]
            if name in expanding or name not in definitions:
                return {"type": "object"}
            rest = {key: value for key, value in node.items() if key != "$ref"}
            return {**inline(definitions[name], expanding | {name}), **inline(rest, expanding)}
        return {key: inline(value, expanding) for key, value in node.items()}

    return inline(schema, frozenset())


def _sequence_origins():
    import collections.abc as abc
    return (abc.Sequence, abc.MutableSequence, abc.Iterable)


def _mapping_origins():
    import collections.abc as abc
    return (abc.Mapping, abc.MutableMapping)


def _with_title(schema, tp):
    doc = tp.__dict__.get("__doc__")  # its own, not dict's inherited one
    # dataclasses invent a docstring from the signature; it tells a model nothing.
    if doc and not doc.startswith(tp.__name__ + "("):
        schema["description"] = doc.strip().split("\n\n")[0]
    return schema


def _add_default(schema, value):
    from toolexec_convert import to_json_safe, NotSerializable
    try:
        schema["default"] = to_json_safe(value)
    except NotSerializable:
        pass


def parse_docstring(doc):
    """(summary, {parameter: description}, returns) from Google, NumPy or reST style."""
    if not doc:
        return "", {}, None
    lines = inspect.cleandoc(doc).splitlines()
    params, returns, summary, section = {}, None, [], None
    current, index = None, 0
    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        rest = re.match(r"^:param\s+(?:[^:]*\s)?(\w+)\s*:\s*(.*)$", stripped)
        rest_returns = re.match(r"^:returns?:\s*(.*)$", stripped)
        numpy_header = index + 1 < len(lines) and re.match(r"^-{3,}\s*$", lines[index + 1].strip())
        if rest:
            section, current = "rest", rest.group(1)
            params[current] = rest.group(2).strip()
        elif rest_returns:
            section, current = "rest-returns", None
            returns = rest_returns.group(1).strip()
        elif stripped.startswith(":"):
            section, current = "rest-other", None
        elif numpy_header:
            name = stripped.lower()
            section = "numpy-params" if name in ("parameters", "args", "arguments") else ("numpy-returns" if name in ("returns", "return") else "other")
            current = None
            index += 1
        elif re.match(r"^(Args|Arguments|Parameters|Params)\s*:\s*$", stripped):
            section, current = "google-params", None
        elif re.match(r"^Returns?\s*:\s*$", stripped):
            section, current = "google-returns", None
        elif _SECTION_ENDS.match(stripped):
            section, current = "other", None
        elif section is None:
            summary.append(line)
        elif section == "google-params":
            entry = re.match(r"^\s{0,8}(\*{0,2}\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$", line)
            if entry and (len(line) - len(line.lstrip())) <= _indent_of_first(lines, index):
                current = entry.group(1).lstrip("*")
                params[current] = entry.group(2).strip()
            elif current and stripped:
                params[current] = (params[current] + " " + stripped).strip()
        elif section == "numpy-params":
            entry = re.match(r"^(\w+)\s*(?::.*)?$", line)
            if entry and not line.startswith((" ", "\t")):
                current = entry.group(1)
                params[current] = ""
            elif current and stripped:
                params[current] = (params[current] + " " + stripped).strip()
        elif section in ("google-returns", "numpy-returns"):
            if stripped and section == "numpy-returns" and returns is None and not line.startswith((" ", "\t")):
                returns = ""  # the NumPy type line; the description follows, indented
            elif stripped:
                text = re.sub(r"^[\w\[\], .|]+:\s+", "", stripped) if section == "google-returns" and returns is None else stripped
                returns = ((returns or "") + " " + text).strip()
        elif section in ("rest", "rest-returns") and stripped:
            if section == "rest" and current:
                params[current] = (params[current] + " " + stripped).strip()
            elif section == "rest-returns":
                returns = ((returns or "") + " " + stripped).strip()
        index += 1
    return "\n".join(summary).strip(), params, returns or None


def _indent_of_first(lines, index):
    """The indentation of the first entry of the section that holds line `index`."""
    start = index
    while start > 0 and lines[start - 1].strip() and not re.match(r"^(Args|Arguments|Parameters|Params)\s*:\s*$", lines[start - 1].strip()):
        start -= 1
    line = lines[start]
    return len(line) - len(line.lstrip())


def function_schemas(function, exclude=()):
    """{description, inputSchema, outputSchema?} for one function. Parameters in `exclude` and
    those taking a FastMCP `Context` are left out: the caller never gives them."""
    signature = inspect.signature(function)
    try:
        hints = typing.get_type_hints(function, include_extras=True)
    except Exception:
        hints = getattr(function, "__annotations__", {})
    summary, param_docs, returns_doc = parse_docstring(inspect.getdoc(function))
    properties, required, extra = {}, [], False
    for name, parameter in signature.parameters.items():
        if parameter.kind is inspect.Parameter.VAR_POSITIONAL:
            continue
        if parameter.kind is inspect.Parameter.VAR_KEYWORD:
            extra = True
            continue
        if name in exclude or is_context(hints.get(name)):
            continue
        schema = dict(type_schema(hints.get(name, inspect.Parameter.empty)))
        if name in param_docs and param_docs[name] and "description" not in schema:
            schema["description"] = param_docs[name]
        if parameter.default is inspect.Parameter.empty:
            required.append(name)
        else:
            _add_default(schema, parameter.default)
        properties[name] = schema
    input_schema = {"type": "object", "properties": properties}
    if required:
        input_schema["required"] = required
    if not extra:
        input_schema["additionalProperties"] = False
    result = {"description": summary or function.__name__.replace("_", " "), "inputSchema": input_schema}
    if "return" in hints:
        output = dict(type_schema(hints["return"], mode="serialization"))
        if returns_doc and "description" not in output:
            output["description"] = returns_doc
        result["outputSchema"] = output
    return result
