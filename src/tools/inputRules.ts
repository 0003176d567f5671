// The checks of a tool's input that span fields, apart from zod: the schemas
// (src/tools/schemas.ts) refine with them, and the quick checks (src/tools/quick.ts) take
// input only when they pass, so both judge a call alike.

/** The fields of fs_read's input the checks look at. */
export interface ReadShape {
  mode?: string;
  indentation?: object;
  column?: number;
  symbol?: string;
  offset?: number;
  limit?: number;
}

/** `indentation` with mode "slice" (refused). */
export function indentationOutsideItsMode(v: ReadShape): boolean {
  return v.mode === 'slice' && !!v.indentation;
}

/** `column` applies only in mode "slice", alone. */
export function columnInSlice(v: ReadShape): boolean {
  return v.column === undefined || ((v.mode === undefined || v.mode === 'slice') && !v.indentation && v.symbol === undefined);
}

/** `indentation` with mode "outline" (refused). */
export function indentationInOutline(v: ReadShape): boolean {
  return v.mode === 'outline' && !!v.indentation;
}

/** `symbol` reads the whole symbol: no mode but "outline", no offset or limit. */
export function symbolWhole(v: ReadShape): boolean {
  return v.symbol === undefined || v.mode === 'outline' || (v.mode === undefined && !v.indentation && v.offset === undefined && v.limit === undefined);
}

/** The fields of fs_edit's input the checks look at. */
export interface EditShape {
  symbol?: string;
  cell?: number;
  insert_cell?: string;
  delete_cell?: boolean;
  old_string?: string;
  new_string?: string;
  replace_all?: boolean;
  edits?: readonly unknown[];
}

export interface ShapeProblem {
  path: string;
  message: string;
}

/** What is wrong with how fs_edit's fields go together, in the order the schema reports it; none when they fit. */
export function editShapeProblems(v: EditShape): ShapeProblem[] {
  const problems: ShapeProblem[] = [];
  const single = v.old_string !== undefined || v.new_string !== undefined || v.replace_all !== undefined;
  const structural = v.insert_cell !== undefined || v.delete_cell !== undefined;
  // `cell` and `symbol` both name a region whose whole text new_string replaces, or inside which old_string matches
  const checkInside = (field: 'cell' | 'symbol', whole: string, emptyHint: string) => {
    if (v.new_string === undefined && !v.edits) {
      problems.push({ path: 'new_string', message: `is required with ${field}: ${whole} (or, with old_string, the replacement inside it)` });
    }
    if (v.replace_all && v.old_string === undefined) {
      problems.push({ path: 'replace_all', message: 'applies to old_string: give old_string too, or drop replace_all' });
    }
    if (v.old_string === '') {
      problems.push({ path: 'old_string', message: `is empty: with ${field}, ${emptyHint}` });
    }
  };
  if (v.edits && single) {
    problems.push({ path: 'edits', message: 'give either old_string/new_string or edits, not both' });
  } else if (v.cell !== undefined && v.symbol !== undefined) {
    problems.push({ path: 'cell', message: 'names a notebook cell and `symbol` a symbol of a source file: give one of them' });
  } else if (v.cell === undefined && structural) {
    problems.push({ path: v.insert_cell !== undefined ? 'insert_cell' : 'delete_cell', message: 'needs `cell`: the position of the cell (as fs_read numbers cells)' });
  } else if (v.insert_cell !== undefined && v.delete_cell !== undefined) {
    problems.push({ path: 'delete_cell', message: 'and insert_cell are two changes: make them in two calls' });
  } else if (v.insert_cell !== undefined) {
    if (v.old_string !== undefined || v.edits || v.replace_all !== undefined) {
      problems.push({ path: 'insert_cell', message: 'takes only new_string, the new cell\'s source: drop old_string, replace_all and edits' });
    }
    if (v.new_string === undefined) {
      problems.push({ path: 'new_string', message: 'is required with insert_cell: the new cell\'s source' });
    }
  } else if (v.delete_cell !== undefined) {
    if (v.delete_cell !== true) {
      problems.push({ path: 'delete_cell', message: 'is only ever true: to edit the cell, drop delete_cell' });
    } else if (single || v.edits) {
      problems.push({ path: 'delete_cell', message: 'takes no text: drop old_string, new_string, replace_all and edits' });
    }
  } else if (v.cell !== undefined) {
    checkInside('cell', "the cell's new source", 'give the text to replace inside the cell, or omit old_string to replace its whole source');
  } else if (v.symbol !== undefined) {
    checkInside('symbol', "the symbol's new text", 'give the text to replace inside the symbol, or omit old_string to replace the whole symbol');
  } else if (!v.edits) {
    if (v.old_string === undefined) {
      problems.push({ path: 'old_string', message: 'is required (or give edits)' });
    }
    if (v.new_string === undefined) {
      problems.push({ path: 'new_string', message: 'is required (or give edits)' });
    }
  }
  return problems;
}
