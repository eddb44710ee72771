/** The message `fn`'s failed assertion throws; throws when the assertion passed (test/vitest). */
export function failure(fn: () => void): string {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('the assertion passed');
}
