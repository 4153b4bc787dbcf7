#!/usr/bin/env python3
"""The public API's shape from rustdoc's JSON (issue 25 point 1): every public item and the
paths it can be named by, walking the crate from its root through public modules and
re-exports (`#[doc(hidden)]` items left out, as docs.rs leaves them out).

    cargo +nightly rustdoc --lib -- -Z unstable-options --output-format json
    scripts/api-paths.py target/doc/tuicast.json [--list]

Prints the number of public items, of items with more than one path, and (with --list) each
of those with its paths. With --check, exits 1 when an item has more than one path (CI runs
it: one path per item, as src/lib.rs promises)."""
import json, sys

def main():
    doc = json.load(open(sys.argv[1]))
    index = doc["index"]
    root = str(doc["root"])

    def hidden(item):
        for a in item.get("attrs", []):
            text = a if isinstance(a, str) else json.dumps(a)
            if "doc(hidden)" in text.replace(" ", "") or "hidden" == (a.get("other") if isinstance(a, dict) else None):
                return True
        return False

    paths = {}  # id -> set of paths
    kinds = {}
    seen_modules = set()

    def walk(module_id, prefix):
        key = (module_id, tuple(prefix))
        if key in seen_modules:
            return
        seen_modules.add(key)
        module = index.get(str(module_id))
        if module is None:
            return
        inner = module["inner"]["module"]
        for child in inner["items"]:
            item = index.get(str(child))
            if item is None or item.get("visibility") != "public" or hidden(item):
                continue
            kind, body = next(iter(item["inner"].items()))
            if kind == "use":
                target = body.get("id")
                titem = index.get(str(target)) if target is not None else None
                if body.get("is_glob"):
                    if titem is not None and "module" in titem["inner"]:
                        walk(target, prefix)
                    continue
                name = body["name"]
                if titem is None:
                    continue  # an item of another crate
                if hidden(titem):
                    continue
                tkind = next(iter(titem["inner"]))
                if tkind == "module":
                    walk(target, prefix + [name])
                else:
                    paths.setdefault(str(target), set()).add("::".join(prefix + [name]))
                    kinds[str(target)] = tkind
            elif kind == "module":
                walk(child, prefix + [item["name"]])
            elif kind in ("impl",):
                continue
            else:
                name = item.get("name")
                if name:
                    paths.setdefault(str(child), set()).add("::".join(prefix + [name]))
                    kinds[str(child)] = kind

    walk(root, ["tuicast"])
    many = {i: p for i, p in paths.items() if len(p) > 1}
    print(f"public items: {len(paths)}; with more than one path: {len(many)}")
    if "--list" in sys.argv:
        for i, p in sorted(many.items(), key=lambda x: sorted(x[1])[0]):
            print(f"  {kinds[i]}: " + "  ".join(sorted(p)))
    if "--check" in sys.argv and many:
        for i, p in sorted(many.items(), key=lambda x: sorted(x[1])[0]):
            print(f"  {kinds[i]}: " + "  ".join(sorted(p)))
        print("error: these public items have more than one path: keep one (a private or "
              "pub(crate) module with a re-export, or no re-export)")
        sys.exit(1)

main()
