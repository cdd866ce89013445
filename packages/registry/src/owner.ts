/** Who a host acts for; projected to one owner key. */
export interface OwnershipScope {
  tenantId?: string;
  userId?: string;
}

/** An agent's identity, used for the owner key when no ownership scope is given. */
export interface AgentIdentity {
  tenantId?: string;
  userId?: string;
  agentId?: string;
  id?: string;
}

/**
 * The owner key of a session: the request's `owner`, else the registry's ownership scope
 * (`tenant:user`), else the identity. Undefined means unowned (any caller may use it).
 */
export function resolveOwnerKey(
  owner: string | undefined,
  ownership: OwnershipScope | undefined,
  identity: AgentIdentity | undefined,
): string | undefined {
  if (owner !== undefined) return owner;
  const scope = ownership ?? identity;
  if (scope === undefined) return undefined;
  const parts = [
    scope.tenantId,
    scope.userId,
    (scope as AgentIdentity).agentId ?? (scope as AgentIdentity).id,
  ];
  const key = parts.filter((part): part is string => typeof part === 'string' && part !== '').join(':');
  return key === '' ? undefined : key;
}
