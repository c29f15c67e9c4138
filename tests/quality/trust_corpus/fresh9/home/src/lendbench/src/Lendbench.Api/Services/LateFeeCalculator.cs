namespace Lendbench.Api.Services;

public sealed class LateFeeCalculator(decimal perDay, decimal cap)
{
    public decimal For(int daysLate) => Math.Min(cap, Math.Max(0, daysLate) * perDay);
}
