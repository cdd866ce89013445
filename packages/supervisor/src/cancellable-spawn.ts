import { abortError, type ProcessAdapter } from '@procmux/core-types';

/** Starts an adapter; `signal` tells a cooperative factory that nobody wants it any more. */
export type AdapterCreator = (signal: AbortSignal) => Promise<ProcessAdapter>;

/**
 * Runs `create`, rejecting with an AbortError the moment `signal` aborts. Creation is not
 * interrupted (the OS may already be starting the process), so the adapter that
 * materialises after the abort is force-killed and disposed instead of being leaked.
 * `onOrphanError` hears about a failure to kill such an adapter.
 */
export function createCancellable(
  create: AdapterCreator,
  signal: AbortSignal | undefined,
  onOrphanError: (error: unknown) => void,
): Promise<ProcessAdapter> {
  if (signal?.aborted) return Promise.reject(abortError(signal.reason));
  const inner = new AbortController();
  let creation: Promise<ProcessAdapter>;
  try {
    creation = create(inner.signal);
  } catch (error) {
    return Promise.reject(error);
  }
  if (signal === undefined) return creation;
  return new Promise<ProcessAdapter>((resolve, reject) => {
    let abandoned = false;
    const onAbort = () => {
      abandoned = true;
      inner.abort(signal.reason);
      reject(abortError(signal.reason));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    creation.then(
      (adapter) => {
        signal.removeEventListener('abort', onAbort);
        if (abandoned) discard(adapter, onOrphanError);
        else resolve(adapter);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        if (!abandoned) reject(error);
      },
    );
  });
}

/** Force-kills and disposes an adapter nobody will own. */
export function discard(adapter: ProcessAdapter, onError: (error: unknown) => void): Promise<void> {
  return adapter
    .kill('force')
    .catch(onError)
    .finally(() => adapter.dispose());
}
