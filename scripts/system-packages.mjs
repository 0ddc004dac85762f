#!/usr/bin/env node
// The programs npm cannot install: the receipt readers (poppler's pdftotext and pdftoppm,
// Tesseract with the languages our users write) and, for the tests, Chromium. On Debian or
// Ubuntu they are installed here with apt-get when this runs as root or with password-less sudo;
// otherwise it names the one command to run.
//
//   node scripts/system-packages.mjs --service   bin/accounting, every start: install or warn, go on
//   node scripts/system-packages.mjs --tests     npm test, first step: install or stop at once
//
// ACCOUNTING_SYSTEM_PACKAGES=skip turns the install off (a locked-down host installs them itself).
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Tesseract's language models: the languages the receipt reader reads (docs/receipts-extraction.md). */
export const OCR_LANGUAGES = ['eng', 'deu', 'fra', 'nld', 'spa', 'ita', 'por'];

/** What the service needs: each command or language, and the Debian package that brings it. */
const SERVICE = [
  { need: 'pdftotext', pkg: 'poppler-utils', command: 'pdftotext' },
  { need: 'pdftoppm', pkg: 'poppler-utils', command: 'pdftoppm' },
  { need: 'tesseract', pkg: 'tesseract-ocr', command: 'tesseract' },
  { need: 'tesseract osd (orientation)', pkg: 'tesseract-ocr-osd', language: 'osd' },
  ...OCR_LANGUAGES.map((lang) => ({
    need: `tesseract ${lang}`,
    pkg: `tesseract-ocr-${lang}`,
    language: lang,
  })),
];
const TESTS = [...SERVICE, { need: 'chromium', pkg: 'chromium', command: 'chromium' }];

function onPath(command) {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
    try {
      accessSync(path.join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function tesseractLanguages() {
  if (!onPath('tesseract')) return new Set();
  const out = spawnSync('tesseract', ['--list-langs'], { encoding: 'utf8', timeout: 10_000 });
  // The first line is a heading ("List of available languages ..."); the rest are names.
  return new Set(`${out.stdout ?? ''}\n${out.stderr ?? ''}`.split(/\r?\n/).map((l) => l.trim()));
}

/** The Debian packages missing for `purpose` ('service' or 'tests'), without repeats. */
export function missingPackages(purpose) {
  const languages = tesseractLanguages();
  const wanted = purpose === 'tests' ? TESTS : SERVICE;
  const missing = wanted.filter((w) => (w.command ? !onPath(w.command) : !languages.has(w.language)));
  return [...new Set(missing.map((w) => w.pkg))];
}

function installCommand(packages) {
  return `sudo apt-get update && sudo apt-get install -y --no-install-recommends ${packages.join(' ')}`;
}

/** Root, or sudo that does not ask for a password, on a machine with apt-get. */
function canInstall() {
  if (!onPath('apt-get')) return undefined;
  if (process.getuid?.() === 0) return [];
  if (!onPath('sudo')) return undefined;
  const probe = spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore', timeout: 5_000 });
  return probe.status === 0 ? ['sudo', '-n'] : undefined;
}

function run(prefix, args, env) {
  const [command, ...rest] = [...prefix, ...args];
  const result = spawnSync(command, rest, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, ...env },
  });
  return result.status === 0;
}

/** Installs what is missing; returns the packages still missing afterwards. */
export function ensurePackages(purpose, log = (line) => process.stderr.write(`${line}\n`)) {
  const missing = missingPackages(purpose);
  if (missing.length === 0 || process.env.ACCOUNTING_SYSTEM_PACKAGES === 'skip') return missing;
  const prefix = canInstall();
  if (prefix === undefined) return missing;
  log(`accounting: installing ${missing.join(', ')} with apt-get (first run only)...`);
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  run(prefix, ['apt-get', 'update', '-qq'], env);
  run(prefix, ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...missing], env);
  return missingPackages(purpose);
}

function main() {
  const purpose = process.argv.includes('--tests') ? 'tests' : 'service';
  const still = ensurePackages(purpose);
  if (still.length === 0) return 0;
  if (purpose === 'tests') {
    process.stderr.write(
      `The tests need programs npm cannot install: ${still.join(', ')}.\nInstall them, then run the tests again:\n\n  ${installCommand(still)}\n\n`,
    );
    return 1;
  }
  process.stderr.write(
    `accounting: receipts that need ${still.join(', ')} wait for review until installed (they are read again then):\n  ${installCommand(still)}\n`,
  );
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exit(main());
