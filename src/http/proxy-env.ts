// Apart from the proxy transport, so that every run can ask whether a proxy is set without loading it.

/** The proxy variables, as the environment spells them (lower case first, as curl and undici read them). */
export interface ProxyEnv {
  https_proxy?: string;
  HTTPS_PROXY?: string;
  no_proxy?: string;
  NO_PROXY?: string;
}

/** The proxy an https request goes through, unless NO_PROXY says otherwise; undefined when none is set. */
export function httpsProxyOf(env: ProxyEnv): string | undefined {
  return env.https_proxy || env.HTTPS_PROXY || undefined;
}
