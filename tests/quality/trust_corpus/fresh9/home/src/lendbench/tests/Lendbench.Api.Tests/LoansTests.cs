using NUnit.Framework;

namespace Lendbench.Api.Tests;

public class LoansTests
{
    [Test]
    public void A_retired_tool_cannot_be_lent() => Assert.Pass();
}
