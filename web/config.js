// Where the page finds the API. Empty strings mean "the origin that served this page" (the
// local runtime: http://127.0.0.1:3000 and ws://127.0.0.1:3000/ws). When web/ is hosted
// elsewhere (S3 + CloudFront, any static host), set both to the deployed stack's outputs,
// e.g. api: "https://abc123.execute-api.eu-west-1.amazonaws.com",
//      ws: "wss://def456.execute-api.eu-west-1.amazonaws.com/prod".
// The query parameters ?api=…&ws=… override them for one visit.
// auth turns on the hosted sign-in (Cognito's authorization code flow with PKCE) instead of the
// local runtime's dev tokens: the stack's Cognito domain and its output UserPoolClientId, e.g.
//   auth: { domain: "https://domino.auth.eu-west-1.amazoncognito.com", clientId: "abc123" },
// with this page's address in the stack's CallbackUrls and LogoutUrls (docs/web.md "Sign-in on
// the deployed stack"). ?auth_domain=…&client_id=… name them for one visit.
export default {
  api: "",
  ws: "",
  auth: null,
};
