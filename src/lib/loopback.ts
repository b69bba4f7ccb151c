/** Whether a host name or address is this machine's loopback (D6: plain HTTP only there; D36: the metrics port's default). */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
