"""An import-linter contract type for what its own `forbidden` cannot say: "never import
these parts of an external package" (streamlit.runtime, but streamlit itself is fine).

import-linter 2.17 refuses a forbidden module inside an external package ("subpackages of
external packages are not valid"): grimp keeps an external package as one node
(`streamlit`), whatever part of it a line imports. This contract looks at each import of
that node from the source modules, re-reads the statement from its file (so
`from streamlit import runtime` and a statement over several lines count), and names
every file and line that imports a forbidden part. pyproject.toml registers it
(`contract_types`) for the contract "streamlit-internals-door".

    [[tool.importlinter.contracts]]
    type = "forbidden_external_parts"
    source_modules = ["ui", "tests"]
    forbidden_parts = ["streamlit.runtime", "streamlit.proto"]
    ignore_imports = ["ui.server.streamlit_internals -> streamlit"]

    >>> imported_names(ast.parse("from streamlit import runtime, config as c").body[0])
    ['streamlit', 'streamlit.runtime', 'streamlit.config']
    >>> forbidden_name(["streamlit", "streamlit.runtime.app_session"], ["streamlit.runtime"])
    'streamlit.runtime.app_session'
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterable
from pathlib import Path

from grimp import ImportGraph
from importlinter import Contract, ContractCheck, fields, output
from importlinter.application import contract_utils
from importlinter.application.contract_utils import AlertLevel
from importlinter.domain.helpers import module_expressions_to_modules


class ForbiddenExternalPartsContract(Contract):
    """Source modules (and everything in them) never import the forbidden parts of an
    external package, directly; `ignore_imports` lets the one door through."""

    type_name = "forbidden_external_parts"

    source_modules = fields.ListField(subfield=fields.ModuleExpressionField())
    forbidden_parts = fields.ListField(subfield=fields.StringField())
    ignore_imports = fields.SetField(subfield=fields.ImportExpressionField(), required=False)
    unmatched_ignore_imports_alerting = fields.EnumField(AlertLevel, default=AlertLevel.ERROR)
    broken_contract_guidance = fields.TextField(required=False)

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        removal = contract_utils.remove_ignored_imports_and_report(
            graph=graph,
            ignore_imports=self.ignore_imports,  # type: ignore[arg-type]
            unmatched_alerting=self.unmatched_ignore_imports_alerting,  # type: ignore[arg-type]
        )
        parts = [str(part) for part in self.forbidden_parts]  # type: ignore[attr-defined]
        roots = sorted({part.split(".")[0] for part in parts})
        sources = module_expressions_to_modules(graph, self.source_modules)  # type: ignore[arg-type]
        importers = sorted(
            {
                name
                for module in sources
                for name in (module.name, *graph.find_descendants(module.name))
            }
        )
        found: list[tuple[str, int, str]] = []
        for importer in importers:
            for root in roots:
                if root not in graph.modules or not graph.direct_import_exists(
                    importer=importer, imported=root
                ):
                    continue
                for detail in graph.get_import_details(importer=importer, imported=root):
                    line = int(detail["line_number"])
                    name = forbidden_name(names_at(importer, line), parts)
                    if name is not None:
                        found.append((importer, line, name))
        return ContractCheck(
            kept=not found,
            warnings=list(removal.warnings),
            ignored_import_count=removal.ignored_import_count,
            metadata={"found": found},
        )

    def render_broken_contract(self, check: ContractCheck) -> None:
        for importer, line, name in check.metadata["found"]:
            output.print_error(f"- {module_path(importer)}:{line} imports {name}", bold=False)
            output.new_line()
        contract_utils.render_broken_contract_guidance(
            self.broken_contract_guidance  # type: ignore[arg-type]
        )


def module_path(module: str) -> str:
    """A module's file, from the project's root (where lint-imports runs)."""
    base = Path(*module.split("."))
    package = base / "__init__.py"
    return str(package if package.exists() else base.with_suffix(".py"))


@functools.cache
def _statements(path: str) -> dict[int, ast.stmt]:
    """A file's import statements by their first line."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"), filename=path)
    return {
        node.lineno: node
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
    }


def names_at(module: str, line: int) -> list[str]:
    """The dotted names the import statement at `line` of `module` brings in."""
    statement = _statements(module_path(module)).get(line)
    return [] if statement is None else imported_names(statement)


def imported_names(statement: ast.stmt) -> list[str]:
    """The module and every `module.name` an import statement names."""
    if isinstance(statement, ast.Import):
        return [alias.name for alias in statement.names]
    if isinstance(statement, ast.ImportFrom) and statement.module and not statement.level:
        return [statement.module, *(f"{statement.module}.{a.name}" for a in statement.names)]
    return []


def forbidden_name(names: Iterable[str], parts: Iterable[str]) -> str | None:
    """The first of `names` inside one of the forbidden `parts`, or None."""
    parts = list(parts)
    for name in names:
        if any(name == part or name.startswith(part + ".") for part in parts):
            return name
    return None
