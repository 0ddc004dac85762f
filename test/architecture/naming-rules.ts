/**
 * The naming rule of docs/architecture.md, as functions the tests apply to the real tree and to
 * deliberately broken examples (so a rule that silently stopped checking would fail too).
 */

/** Helper files an operations area may hold beside its operation files. */
export const AREA_HELPERS = ['index.ts', 'schema.ts', 'store.ts'] as const;
/** Helper files a test area may hold beside its test files. */
export const TEST_HELPERS = ['helpers.ts'] as const;

const kebab = (segment: string) => segment.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * `a.b.c` -> `src/operations/a/b-c.ts`: the first segment names the area folder, the rest joined
 * by '-' names the file; every segment is turned from camelCase into kebab-case.
 */
export function operationFile(name: string): string {
  const [area, ...rest] = name.split('.');
  if (area === undefined || rest.length === 0) throw new Error(`operation name without area: ${name}`);
  return `src/operations/${kebab(area)}/${rest.map(kebab).join('-')}.ts`;
}

/** `a.b.c` -> `test/operations/a/b-c.test.ts`. */
export function operationTestFile(name: string): string {
  return operationFile(name)
    .replace(/^src\//, 'test/')
    .replace(/\.ts$/, '.test.ts');
}

/** Problems in a list of (operation name, file that defines it). */
export function misplacedOperations(found: ReadonlyArray<{ name: string; file: string }>): string[] {
  return found
    .filter(({ name, file }) => operationFile(name) !== file)
    .map(({ name, file }) => `${name} is defined in ${file}, expected ${operationFile(name)}`);
}

/** Files of src/operations/<area>/ that are neither an operation of the catalog nor a helper. */
export function strayAreaFiles(files: readonly string[], operationNames: readonly string[]): string[] {
  const expected = new Set(operationNames.map(operationFile));
  return files.filter(
    (file) => !expected.has(file) && !AREA_HELPERS.some((helper) => file.endsWith(`/${helper}`)),
  );
}

/**
 * Files of test/operations/<area>/ not named after an operation of the catalog (or a helper).
 * A test file is `<rest>.test.ts` or `<rest>.<aspect>.test.ts`, where `<rest>` is the file name of
 * the first operation it covers: several files may test one operation from different sides.
 */
export function strayTestFiles(files: readonly string[], operationNames: readonly string[]): string[] {
  const expected = new Set(operationNames.map(operationTestFile));
  return files.filter((file) => {
    if (TEST_HELPERS.some((helper) => file.endsWith(`/${helper}`))) return false;
    const withoutAspect = file.replace(/^(.*\/[^/.]+)\.[a-z0-9-]+\.test\.ts$/, '$1.test.ts');
    return !expected.has(file) && !expected.has(withoutAspect);
  });
}
