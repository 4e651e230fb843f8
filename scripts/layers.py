#!/usr/bin/env python3
"""The layers of docs/ARCHITECTURE.md, checked on the sources:
- no include cycle among the project's files;
- src/model, src/patterns and src/coll include neither <mpi.h> nor
  src/runtime, src/api or include/mpicoll.h (the model builds without MPI);
- src/runtime includes nothing of src/api or src/preload;
- tools/ include only include/ (public), src/model/ and tools/ itself.
Prints each violation; exit status 1 if there is one."""
import os, re, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INC = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def files():
    for top in ('src', 'tools', 'include'):
        for d, _, names in os.walk(os.path.join(root, top)):
            for n in names:
                if n.endswith(('.c', '.h', '.def')):
                    yield os.path.relpath(os.path.join(d, n), root)


def resolve(f, name):
    """The project file an #include "name" in f names, or None."""
    for base in (os.path.dirname(f), 'src', 'include', 'tools'):
        p = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(root, p)):
            return p
    return None


def layer(p):
    parts = p.split('/')
    return parts[0] if parts[0] != 'src' else parts[0] + '/' + parts[1]


def main():
    edges, bad = {}, []
    for f in files():
        text = open(os.path.join(root, f), encoding='utf-8').read()
        edges[f] = []
        for kind, name in INC.findall(text):
            if kind == '<':
                if name == 'mpi.h' and layer(f) in ('src/model', 'src/patterns', 'src/coll'):
                    bad.append(f'{f}: includes <mpi.h> (the model has no MPI)')
                continue
            if name.startswith('COLL_STR') or '(' in name:
                continue
            t = resolve(f, name)
            if t is None:
                continue
            edges[f].append(t)
            a, b = layer(f), layer(t)
            if a in ('src/model', 'src/patterns', 'src/coll') and (
                    b in ('src/runtime', 'src/api', 'src/preload', 'tools')
                    or t == 'include/mpicoll.h'):
                bad.append(f'{f}: includes {t} (the model has no MPI)')
            if a == 'src/runtime' and b in ('src/api', 'src/preload', 'tools'):
                bad.append(f'{f}: includes {t} (the runtime is below the API)')
            if a == 'tools' and b not in ('tools', 'include', 'src/model'):
                bad.append(f'{f}: includes {t} (tools use the public API and the model)')
    # include cycles: depth-first search on the include graph
    state = {}

    def visit(f, stack):
        state[f] = 1
        for t in edges.get(f, []):
            if state.get(t) == 1:
                bad.append('include cycle: ' + ' -> '.join(stack[stack.index(t):] + [t]))
            elif t in edges and not state.get(t):
                visit(t, stack + [t])
        state[f] = 2
    for f in sorted(edges):
        if not state.get(f):
            visit(f, [f])
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
