/** The request's shared facts: one owner, the same answer whoever asks first. */
import { requestContext } from "../../lib/http/request-context.js";
import { gatewayEvent, UUID } from "./harness.js";

describe("requestContext", () => {
  it("is API Gateway's request id when the event has one", () => {
    expect(requestContext(gatewayEvent({ requestId: "gw-7" })).requestId).toBe("gw-7");
  });

  it("is a fresh UUID per event without one", () => {
    const first = requestContext(gatewayEvent({})).requestId;
    const second = requestContext(gatewayEvent({ requestId: "" })).requestId;
    expect(first).toMatch(UUID);
    expect(second).toMatch(UUID);
    expect(first).not.toBe(second);
  });

  it("is made once per event: every later ask gets the same id and start", () => {
    const event = gatewayEvent({});
    const first = requestContext(event);
    // Middlewares change the event's body and path parameters; the request stays the same.
    event.body = "{}";
    event.pathParameters = { companyId: "acme" };
    expect(requestContext(event)).toBe(first);
    expect(requestContext(gatewayEvent({}))).not.toBe(first);
  });
});
