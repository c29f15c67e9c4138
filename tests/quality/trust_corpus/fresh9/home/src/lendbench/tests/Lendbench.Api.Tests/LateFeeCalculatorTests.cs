using Lendbench.Api.Services;
using NUnit.Framework;

namespace Lendbench.Api.Tests;

public class LateFeeCalculatorTests
{
    [Test]
    public void The_fee_stops_at_the_cap() =>
        Assert.That(new LateFeeCalculator(3m, 50m).For(40), Is.EqualTo(50m));
}
