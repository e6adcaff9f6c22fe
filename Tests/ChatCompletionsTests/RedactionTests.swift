import Foundation
import Testing

@testable import ChatCompletions
@testable import HTTPStreaming

private func endpoint(
  _ url: String = "http://127.0.0.1:8080", apiKey: String? = nil, headers: [String: String] = [:]
) throws -> EndpointConfiguration {
  EndpointConfiguration(baseURL: try #require(URL(string: url)), apiKey: apiKey, additionalHeaders: headers)
}

@Suite(.timeLimit(.minutes(10))) struct RedactionTests {
  @Test(
    .timeLimit(.minutes(10)),
    arguments: [
      ("Authorization", "Bearer abcd-bearer-secret", "abcd-bearer-secret"),
      ("Proxy-Authorization", "Bearer proxy-secret-value", "proxy-secret-value"),
      ("Ocp-Apim-Subscription-Key", "0f1e2d3c4b5a", "0f1e2d3c4b5a"),
      ("X-Auth", "x-auth-value-77", "x-auth-value-77"),
      ("apikey", "plain-apikey-88", "plain-apikey-88"),
      ("X-Amz-Security-Token", "amz-token-99", "amz-token-99"),
      ("Cookie", "sid=cookie-secret-11; theme=dark", "cookie-secret-11"),
      ("X-Client-Secret", "client-secret-22", "client-secret-22"),
    ])
  func `the bare credential inside a secret header's value is redacted wherever it appears`(
    name: String, value: String, bare: String
  ) throws {
    let redaction = try endpoint(headers: [name: value]).redaction
    let echoed = "invalid credential \(bare) (you sent \"\(value)\")"
    let redacted = redaction.apply(to: echoed)
    #expect(!redacted.contains(bare), "\(redacted)")
    #expect(redacted.hasPrefix("invalid credential <redacted>"))
  }

  @Test(.timeLimit(.minutes(10))) func `a Basic credential's decoded user and password are redacted`() throws
  {
    let encoded = Data("alice:basic-pass-123".utf8).base64EncodedString()
    let redaction = try endpoint(headers: ["Authorization": "Basic \(encoded)"]).redaction
    #expect(redaction.apply(to: "user alice:basic-pass-123 denied") == "user <redacted> denied")
    #expect(redaction.apply(to: "password basic-pass-123 denied") == "password <redacted> denied")
    #expect(!redaction.apply(to: "header Basic \(encoded)").contains(encoded))
  }

  @Test(.timeLimit(.minutes(10))) func `the API key is redacted as given, percent-encoded and JSON-escaped`()
    throws
  {
    let redaction = try endpoint(apiKey: "sk-a/b+c=d").redaction
    #expect(redaction.apply(to: "key sk-a/b+c=d") == "key <redacted>")
    #expect(redaction.apply(to: "key sk-a%2Fb%2Bc%3Dd") == "key <redacted>")
    #expect(redaction.apply(to: #"{"key":"sk-a\/b+c=d"}"#) == #"{"key":"<redacted>"}"#)
  }

  @Test(.timeLimit(.minutes(10)))
  func `URL user info and secret query values are redacted in any URL of a text`() {
    let redaction = Redaction(secrets: [])
    #expect(
      redaction.apply(to: "fetching https://bob:hunter22@api.example.com/v1?model=x&api_key=abc123&token=t0k")
        == "fetching https://<redacted>@api.example.com/v1?model=x&api_key=<redacted>&token=<redacted>")
    #expect(
      redaction.apply(to: "see http://example.com/a?access_token=zzz#frag")
        == "see http://example.com/a?access_token=<redacted>#frag")
    // Azure's shared access signature and Functions key, and an AWS credential scope.
    #expect(
      redaction.apply(
        to: "GET https://acct.blob.core.windows.net/c?sv=2022-11-02&sig=AbC%2Bd3f&se=2026&code=fk-42")
        == "GET https://acct.blob.core.windows.net/c?sv=2022-11-02&sig=<redacted>&se=2026&code=<redacted>")
    #expect(
      redaction.apply(to: "https://s3.example.com/o?X-Amz-Credential=AKIA123%2F2026&X-Amz-Date=1")
        == "https://s3.example.com/o?X-Amz-Credential=<redacted>&X-Amz-Date=1")
    // Ordinary text with an at sign or an equals sign is left alone, and a name that only
    // contains `sig` or `code` is not secret.
    #expect(redaction.apply(to: "mail bob@example.com, x=1") == "mail bob@example.com, x=1")
    #expect(
      redaction.apply(to: "https://example.com/a?design=x&unicode=y")
        == "https://example.com/a?design=x&unicode=y")
  }

  @Test(.timeLimit(.minutes(10)))
  func `the base URL's password and query token are secrets even when echoed bare`() throws {
    let redaction = try endpoint("https://bob:pw-998877@api.example.com/v1?key=qk-123456").redaction
    #expect(
      redaction.apply(to: "bad password pw-998877 and key qk-123456")
        == "bad password <redacted> and key <redacted>")
  }

  @Test(.timeLimit(.minutes(10)))
  func `redaction runs before the cut, so a key straddling it does not leak its start`() {
    let key = "sk-straddle-0123456789"
    let redaction = Redaction(secrets: [key])
    let text = String(repeating: "x", count: 95) + key + " and more"
    let excerpt = redaction.excerpt(of: text, limit: 100)
    // 95 characters, then the first 5 of "<redacted>", then the ellipsis.
    #expect(excerpt == String(repeating: "x", count: 95) + "<reda…")
    #expect(!excerpt.contains("sk-s"))
  }

  @Test(.timeLimit(.minutes(10)))
  func `the start of a key at the end of a text that was already cut is redacted`() {
    let key = "sk-cutoff-0123456789"
    let redaction = Redaction(secrets: [key])
    #expect(
      redaction.excerpt(of: "body ends with sk-cutoff-01", limit: 100, inputWasCut: true)
        == "body ends with <redacted>")
    // Not when the text is whole: then it is ordinary text.
    #expect(redaction.excerpt(of: "ends with sk-c", limit: 100) == "ends with sk-c")
  }

  @Test(.timeLimit(.minutes(10))) func `descriptions and dumps of an endpoint show no secret`() throws {
    let config = try endpoint(
      "https://bob:pw-998877@api.example.com/v1?api_key=qk-123456", apiKey: "sk-main-key-1",
      headers: [
        "Ocp-Apim-Subscription-Key": "sub-key-2", "Cookie": "a=cookie-3", "X-Auth": "auth-4", "X-Org": "acme",
      ])
    var dumped = ""
    dump(config, to: &dumped)
    for text in [
      config.description, String(reflecting: config), dumped, config.additionalHeaders.description,
    ] {
      for secret in ["pw-998877", "qk-123456", "sk-main-key-1", "sub-key-2", "cookie-3", "auth-4"] {
        #expect(!text.contains(secret), "\(secret) in \(text)")
      }
    }
    // The configuration's own description names the headers and shows no value at all.
    for name in ["Ocp-Apim-Subscription-Key", "Cookie", "X-Auth", "X-Org"] {
      #expect(config.description.contains(name), "\(name) in \(config.description)")
    }
    #expect(!config.description.contains("acme"))
    #expect(String(reflecting: config) == config.description)
    // The headers' description shows an ordinary value beside its name, and a credential as <redacted>.
    let headers = config.additionalHeaders.description
    for shown in [
      "X-Org: acme", "X-Auth: <redacted>", "Cookie: <redacted>", "Ocp-Apim-Subscription-Key: <redacted>",
    ] {
      #expect(headers.contains(shown), "\(shown) in \(headers)")
    }
    #expect(dumped.contains("X-Org: acme") && dumped.contains("X-Auth: <redacted>"), "\(dumped)")
  }

  @Test(
    .timeLimit(.minutes(10)),
    arguments: [
      "Authorization", "proxy-authorization", "Cookie", "Set-Cookie", "X-API-Key",
      "Ocp-Apim-Subscription-Key",
      "apikey",
      "X-Auth", "x-access-token", "Client-Secret", "X-Password",
    ])
  func `secret header names are recognised in any case`(name: String) {
    #expect(Redaction.isSecretName(name))
    #expect(Redaction.isSecretName(name.uppercased()))
  }

  @Test(
    .timeLimit(.minutes(10)),
    arguments: ["Content-Type", "Accept", "User-Agent", "X-Org", "OpenAI-Organization"])
  func `ordinary header names are not secret`(name: String) {
    #expect(!Redaction.isSecretName(name))
  }

  @Test(.timeLimit(.minutes(10)))
  func `a secret of exactly four characters is redacted, one of three is not`() {
    // Redaction.minimumSecretLength: 4.
    #expect(Redaction(secrets: ["k3y9"]).apply(to: "key k3y9 denied") == "key <redacted> denied")
    #expect(Redaction(secrets: ["k3y"]).apply(to: "key k3y denied") == "key k3y denied")
  }

  @Test(.timeLimit(.minutes(10)))
  func `a cut text ending in exactly four characters of a secret is redacted, three are left`() {
    let redaction = Redaction(secrets: ["sk-cutoff-0123456789"])
    // "sk-c" is the secret's first four characters; "sk-" its first three.
    #expect(redaction.excerpt(of: "ends with sk-c", limit: 100, inputWasCut: true) == "ends with <redacted>")
    #expect(redaction.excerpt(of: "ends with sk-", limit: 100, inputWasCut: true) == "ends with sk-")
    // All but the last character: 19 of 20.
    #expect(
      redaction.excerpt(of: "ends with sk-cutoff-012345678", limit: 100, inputWasCut: true)
        == "ends with <redacted>")
  }

  @Test(.timeLimit(.minutes(10)))
  func `a secret that holds a shorter one is redacted whole, not left with its tail showing`() {
    // Longest first: replacing "abcd" first would leave "efgh" of the API key in the text.
    #expect(
      Redaction(secrets: ["abcd", "abcdefgh"]).apply(to: "key abcdefgh, user abcd")
        == "key <redacted>, user <redacted>")
    #expect(
      Redaction(secrets: ["abcdefgh", "abcd"]).apply(to: "key abcdefgh, user abcd")
        == "key <redacted>, user <redacted>")
  }
}
