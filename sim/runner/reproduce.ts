/**
 * The one place that writes an `eos-sim` command for a person to paste: the reproduce line of a
 * run report (console, Markdown, HTML, JSON), of each failing seed in a sweep summary, JUnit
 * XML and `reproduce.txt`, of an internal error, and the replay lines of `--export-scenario` and
 * `eos-sim shrink`.
 *
 * Every such line runs the local install and can never reach a registry. A bare `npx eos-sim`
 * outside a project that has eos-sim installed asks the public registry for a package of that
 * name, and would install whatever is published under it. `npx --no-install` alone still fetches
 * the package's metadata from the registry before it refuses (npm's libnpmexec looks up the
 * manifest of a package missing from the tree first); `--offline` forbids the network, and
 * `--no-install` forbids installing what is missing, even from npm's cache. In the eos-sim
 * checkout npx runs the package's own `bin`; in a project that installed eos-sim, its
 * `node_modules/.bin/eos-sim`; anywhere else the line fails (npm's ENOTCACHED) without a request.
 */

/** The launcher every pasted command starts with (see the module comment). */
export const LOCAL_EOS_SIM = 'npx --offline --no-install eos-sim';

/**
 * `text` as one POSIX shell word: unchanged when it holds only characters no shell treats
 * specially, else single-quoted (a `'` inside written `'\''`).
 * @example shellWord("it's.yaml") // "'it'\\''s.yaml'"
 */
export function shellWord(text: string): string {
  if (/^[A-Za-z0-9_./+,:=@%-]+$/.test(text)) return text;
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/**
 * An `eos-sim` command line with `words` after the launcher, each a shell word; a word given as
 * `{ placeholder }` is printed as it is, for a reader to fill in (`<this file>`).
 * @example
 * eosSimCommand(['run', 'a b.yaml']) // "npx --offline --no-install eos-sim run 'a b.yaml'"
 */
export function eosSimCommand(words: readonly (string | { readonly placeholder: string })[]) {
  const written = words.map((word) =>
    typeof word === 'string' ? shellWord(word) : word.placeholder,
  );
  return [LOCAL_EOS_SIM, ...written].join(' ');
}

/**
 * The command that replays a run exactly, ready to paste into a POSIX shell; `swarm` adds
 * `--swarm` and `kafkaVersion` (a `--kafka-version` the run was given) adds that flag. A path
 * with anything but `A-Z a-z 0-9 _ . / + , : = @ % -` is single-quoted.
 * @example
 * reproduceCommand('my scenarios/a.yaml', '7')
 * // "npx --offline --no-install eos-sim run 'my scenarios/a.yaml' --seed 7"
 */
export function reproduceCommand(
  file: string | { readonly placeholder: string },
  seed: string,
  swarm = false,
  kafkaVersion?: string,
): string {
  const version = kafkaVersion === undefined ? [] : ['--kafka-version', kafkaVersion];
  return eosSimCommand(['run', file, '--seed', seed, ...(swarm ? ['--swarm'] : []), ...version]);
}
