namespace Lendbench.Api.Endpoints;

public static class LoansEndpoints
{
    public static void MapLoans(this WebApplication app)
    {
        RouteGroupBuilder loans = app.MapGroup("/loans").RequireAuthorization();
        loans.MapGet("/", () => Results.Ok());
    }
}
