// Command-line options of `pnpm bench`.

export interface BenchArgs {
  quick: boolean;
  /** Case ids (or id prefixes) to run; empty runs every case. */
  filters: string[];
  markdown: boolean;
  list: boolean;
  help: boolean;
}

export const USAGE = `usage: pnpm bench [--quick] [--filter <case-id>[,<case-id>...]] [--markdown] [--list]

  --quick        fewer runs and smaller sizes; the whole suite finishes in under a minute
  --filter <id>  run only the named cases (an id or an id prefix; repeatable, comma-separated)
  --markdown     also print the table as markdown, with the machine line, for bench/README.md
  --list         print the case ids and what each measures, and exit

Prints one table and writes bench/results/latest.json. A missed target is reported, not
failed: the exit code is 0 unless the harness itself crashes.`;

/** Parses argv; throws with a message for an unknown option or a missing value. */
export function parseArgs(argv: readonly string[]): BenchArgs {
  const args: BenchArgs = { quick: false, filters: [], markdown: false, list: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') continue; // pnpm may pass its separator through
    if (arg === '--quick') args.quick = true;
    else if (arg === '--markdown') args.markdown = true;
    else if (arg === '--list') args.list = true;
    else if (arg === '--help' || arg === '-h') args.help = true;
    else if (arg === '--filter' || arg.startsWith('--filter=')) {
      const value = arg === '--filter' ? argv[++i] : arg.slice('--filter='.length);
      if (!value) throw new Error('--filter needs a case id');
      args.filters.push(...value.split(',').filter((id) => id.length > 0));
    } else throw new Error(`unknown option ${arg}`);
  }
  return args;
}
