import DemoSupport

/// A support chat about a home router over 30 turns: short questions, order
/// lookups and manual searches, with the secrets-guarding rules (an
/// instructions skill) switched on for good early in the chat. Budget: 6,000 tokens.
enum SupportChatScenario {
  static var script: ScenarioScript {
    typealias Call = ScenarioScript.Call
    typealias Turn = ScenarioScript.Turn
    return ScenarioScript(
      name: "support-chat",
      instructions:
        "You are the support assistant of Acme Networks. Be friendly and brief. Look orders up before you "
        + "talk about them, and quote the manual for setup steps.",
      budget: 6_000,
      tools: [
        ReplayToolSpec(
          name: "lookup_order", description: "Returns an order's items, status and shipping.",
          parameter: "order",
          parameterDescription: "The order number."),
        ReplayToolSpec(
          name: "search_manual", description: "Searches the router manuals.", parameter: "query",
          parameterDescription: "What to look up."),
      ],
      usesSkills: true,
      turns: [
        Turn("Hi, my new router arrived but the light keeps blinking orange."),
        Turn("It's the AX3000.", [[Call("search_manual", "AX3000 orange blinking light", tokens: 600)]]),
        Turn("I did that, still orange."),
        Turn("My order number is 88-1042 if that helps.", [[Call("lookup_order", "88-1042", tokens: 300)]]),
        Turn(
          "Before we go on: I will paste my ISP settings, including the password.",
          [[Call(CorpusGenerator.skillToolName, "guarding-secrets")]]),
        Turn("Username acme-user, password hunter2, VLAN 7."),
        Turn("Where do I enter the VLAN?", [[Call("search_manual", "AX3000 VLAN tagging WAN", tokens: 700)]]),
        Turn("Found it. Light is white now!"),
        Turn(
          "How do I set up a guest network?", [[Call("search_manual", "guest network setup", tokens: 650)]]),
        Turn("Can guests see my printer?"),
        Turn("How do I stop that?", [[Call("search_manual", "client isolation guest", tokens: 450)]]),
        Turn("The 5 GHz network doesn't show on my old laptop."),
        Turn(
          "It's from 2014, Intel card.",
          [[Call("search_manual", "5 GHz channel compatibility DFS", tokens: 700)]]),
        Turn("Channel 36 worked, thanks."),
        Turn(
          "Also, I ordered a mesh extender. Has it shipped?", [[Call("lookup_order", "88-1077", tokens: 300)]]
        ),
        Turn("When will it arrive?"),
        Turn("Can I change the delivery address?"),
        Turn(
          "OK, I'll call. How do I pair the extender when it comes?",
          [[Call("search_manual", "mesh extender pairing WPS", tokens: 700)]]),
        Turn("Does pairing work over the guest network?"),
        Turn("What's the best place for the extender?"),
        Turn("My speed test shows 300 Mbit but I pay for 500."),
        Turn("Wired, yes.", [[Call("search_manual", "WAN speed lower than plan", tokens: 600)]]),
        Turn("The cable says CAT5."),
        Turn("I'll buy a CAT6 one. Anything else to check?"),
        Turn(
          "Can I schedule the Wi-Fi to turn off at night?",
          [[Call("search_manual", "wifi schedule", tokens: 500)]]),
        Turn(
          "Great. And parental controls?",
          [[Call("search_manual", "parental controls profiles", tokens: 650)]]),
        Turn("Can I limit one device only?"),
        Turn("Thanks. Can you repeat my ISP settings so I can write them down?"),
        Turn(
          "Fair enough. How do I back up the router's settings?",
          [[Call("search_manual", "backup configuration", tokens: 450)]]),
        Turn("That's all, thank you!"),
      ],
      answerTokens: 50...180)
  }
}
