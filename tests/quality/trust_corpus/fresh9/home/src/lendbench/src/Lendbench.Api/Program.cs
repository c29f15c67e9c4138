using Lendbench.Api.Data;
using Lendbench.Api.Endpoints;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddDbContext<LendbenchDbContext>();
builder.Services.AddProblemDetails();

var app = builder.Build();
app.MapGet("/healthz", () => Results.Ok());
app.MapLoans();
app.MapTools();
app.Run();
