#!/usr/bin/env python3
"""Convert a value between units of length, mass, volume, time, data size or temperature."""
import json
import sys

# Factors to the base unit of each category.
UNITS = {
    "length": {"mm": 0.001, "cm": 0.01, "m": 1.0, "km": 1000.0, "in": 0.0254, "ft": 0.3048, "yd": 0.9144, "mi": 1609.344},
    "mass": {"mg": 1e-6, "g": 0.001, "kg": 1.0, "t": 1000.0, "oz": 0.028349523125, "lb": 0.45359237},
    "volume": {"ml": 0.001, "l": 1.0, "m3": 1000.0, "tsp": 0.00492892159375, "tbsp": 0.01478676478125, "cup": 0.2365882365, "gal": 3.785411784},
    "time": {"ms": 0.001, "s": 1.0, "min": 60.0, "h": 3600.0, "d": 86400.0, "wk": 604800.0},
    "data": {"B": 1.0, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "KiB": 1024.0, "MiB": 1024.0**2, "GiB": 1024.0**3, "TiB": 1024.0**4},
}
TEMPERATURE = {
    "C": (lambda c: c, lambda c: c),
    "F": (lambda f: (f - 32) * 5 / 9, lambda c: c * 9 / 5 + 32),
    "K": (lambda k: k - 273.15, lambda c: c + 273.15),
}


def category_of(unit):
    if unit in TEMPERATURE:
        return "temperature"
    return next((name for name, units in UNITS.items() if unit in units), None)


def main():
    args = json.load(sys.stdin)
    value, source, target = args["value"], args["from"], args["to"]
    source_category, target_category = category_of(source), category_of(target)
    if source_category != target_category:
        print(f"cannot convert {source} ({source_category}) to {target} ({target_category})", file=sys.stderr)
        sys.exit(2)
    if source_category == "temperature":
        result = TEMPERATURE[target][1](TEMPERATURE[source][0](value))
    else:
        units = UNITS[source_category]
        result = value * units[source] / units[target]
    precision = args.get("precision", 6)
    result = round(result, precision)
    json.dump({"value": result, "unit": target, "category": source_category, "text": f"{value:g} {source} = {result:g} {target}"}, sys.stdout)


if __name__ == "__main__":
    main()
