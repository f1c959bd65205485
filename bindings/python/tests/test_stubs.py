"""The type stubs and docstrings describe the module as it is."""
import ast
import os

import leaseq

STUB = os.path.join(os.path.dirname(leaseq.__file__), "__init__.pyi")


def stub_tree():
    with open(STUB) as f:
        return ast.parse(f.read())


def test_stub_names_every_public_name():
    tree = stub_tree()
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    assert set(leaseq.__all__) <= names, set(leaseq.__all__) - names


def test_stub_methods_exist_and_every_method_is_stubbed():
    for cls in stub_tree().body:
        if not isinstance(cls, ast.ClassDef) or not hasattr(leaseq, cls.name):
            continue
        real = getattr(leaseq, cls.name)
        stubbed = {n.name for n in cls.body if isinstance(n, ast.FunctionDef)}
        for name in stubbed:
            assert hasattr(real, name), "%s.%s" % (cls.name, name)
        if cls.name in ("Db", "Lease", "Task", "Worker"):
            public = {n for n in dir(real) if not n.startswith("_")}
            attrs = {n.target.id for n in cls.body if isinstance(n, ast.AnnAssign)}
            assert public <= stubbed | attrs, "%s: %s" % (cls.name, public - stubbed - attrs)


def test_docstrings_everywhere():
    assert "leaseq.connect" in leaseq.__doc__
    for name in leaseq.__all__:
        obj = getattr(leaseq, name)
        if callable(obj):
            assert obj.__doc__, name
    for cls in (leaseq.Db, leaseq.Lease, leaseq.Task, leaseq.Worker):
        for name in dir(cls):
            if not name.startswith("_"):
                assert getattr(cls, name).__doc__, "%s.%s" % (cls.__name__, name)
