// A one_shot's hidden prompt (a password) handed to a person: the client shows a URL of the
// view (MCP URL-mode elicitation, `elicitation/create` with mode 'url'); the page there takes
// the answer and types it into the program's terminal. The answer never passes through MCP,
// so neither the model nor the client sees it.
import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { PersonOutcome, PersonRequest } from '@procmux/tools';
import type { ViewServer } from '@procmux/view';

/** What offers the one-time pages: the view (`--view`). */
export type SecretPageHost = Pick<ViewServer, 'askSecret'>;

/** Whether the connected client takes URL-mode elicitation (it declared `elicitation.url`). */
export function acceptsUrlElicitation(server: Server): boolean {
  return server.getClientCapabilities()?.elicitation?.url !== undefined;
}

/**
 * The tools' `askPerson` for one tool call: offers a view page, asks the client to show its URL
 * (a request related to the call, so it travels on the call's stream over HTTP), and resolves
 * 'answered' once the page delivered the answer, 'declined' when the person declined or
 * cancelled. The page is withdrawn whatever the outcome, and when the ask is aborted.
 */
export function personAsker(
  server: Server,
  pages: SecretPageHost,
  relatedRequestId: RequestId,
): (request: PersonRequest) => Promise<PersonOutcome> {
  return async (request) => {
    const ticket = pages.askSecret({
      prompt: request.prompt,
      label: `procmux session ${request.sessionId}: ${request.command}`,
      deliver: request.deliver,
    });
    const elicitationId = randomUUID();
    const aborted = new Promise<PersonOutcome>((resolve) => {
      if (request.signal.aborted) resolve('timeout');
      request.signal.addEventListener('abort', () => resolve('timeout'), { once: true });
    });
    try {
      const answered = ticket.answered.then((): PersonOutcome => 'answered');
      const shown = request.prompt.trim() === '' ? '' : ` (${JSON.stringify(request.prompt.trim())})`;
      const response = server
        .elicitInput(
          {
            mode: 'url',
            elicitationId,
            url: ticket.url,
            message:
              `A command the model runs waits for input it hides, likely a password${shown}: ${request.command}. ` +
              'Open the page to type it: it goes to the program only, never to the model.',
          },
          { relatedRequestId, signal: request.signal, timeout: Math.max(1, request.timeoutMs) },
        )
        .then(
          // Accepting a URL only says the person opened it: the answer is what counts.
          (result) => (result.action === 'accept' ? answered : ('declined' as const)),
          (): PersonOutcome => 'declined',
        );
      const outcome = await Promise.race([answered, response, aborted]);
      if (outcome === 'answered') {
        await server
          .createElicitationCompletionNotifier(elicitationId, { relatedRequestId })()
          .catch(() => {});
      }
      return outcome;
    } finally {
      ticket.cancel();
    }
  };
}
