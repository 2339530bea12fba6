import type { Attributes, Context as OtelContext, Span, Tracer } from "@opentelemetry/api";

/**
 * OpenTelemetry traces, off by default. On only when OTEL_TRACES_EXPORTER is `otlp`
 * (or `console`) and OTEL_SDK_DISABLED is not `true`; then the SDK is imported and configured by
 * the standard OTEL_* variables (OTEL_EXPORTER_OTLP_ENDPOINT / _TRACES_ENDPOINT / _HEADERS,
 * OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_BSP_*), which the SDK reads itself. Off, no
 * OpenTelemetry module is loaded at all (type imports only): deps.tracing is null and neither the
 * request middleware nor the job runner does any work for it.
 */
export interface Tracing {
  tracer: Tracer;
  /** A span for an incoming request, child of its W3C `traceparent` when it has one. */
  startRequestSpan(name: string, headers: Headers, attributes: Attributes): Span;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

export type TracesExporter = "none" | "otlp" | "console";

export async function startTracing(
  exporter: TracesExporter,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Tracing | null> {
  if (exporter === "none" || env.OTEL_SDK_DISABLED?.toLowerCase() === "true") return null;
  const [api, core, sdk, res] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/core"),
    import("@opentelemetry/sdk-trace-node"),
    import("@opentelemetry/resources"),
  ]);
  const spanExporter =
    exporter === "otlp"
      ? new (await import("@opentelemetry/exporter-trace-otlp-http")).OTLPTraceExporter()
      : new sdk.ConsoleSpanExporter();
  // service.name: OTEL_SERVICE_NAME (or OTEL_RESOURCE_ATTRIBUTES) when set, else "oabp".
  const resource = res
    .resourceFromAttributes({ "service.name": "oabp" })
    .merge(res.detectResources({ detectors: [res.envDetector] }));
  // Not registered globally: the server passes its tracer around (no global state, test-friendly).
  const provider = new sdk.NodeTracerProvider({ resource, spanProcessors: [new sdk.BatchSpanProcessor(spanExporter)] });
  const tracer = provider.getTracer("oabp");
  const propagator = new core.W3CTraceContextPropagator();
  const getter = {
    keys: (h: Headers) => [...h.keys()],
    get: (h: Headers, key: string) => h.get(key) ?? undefined,
  };
  return {
    tracer,
    startRequestSpan(name, headers, attributes) {
      const parent: OtelContext = propagator.extract(api.ROOT_CONTEXT, headers, getter);
      return tracer.startSpan(name, { kind: api.SpanKind.SERVER, attributes }, parent);
    },
    forceFlush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

/** OpenTelemetry's SpanStatusCode.ERROR, without importing the API at run time. */
export const SPAN_ERROR = 2;
