import numpy as np
exec(open("proto.py").read().split("def main")[0])
def fit(xs,ys,rho,rng,KC=1.0,block=True):
    n,p=xs.shape; Cx=np.sqrt(p)
    X=np.hstack([l2clip(xs,Cx)/Cx,KC*np.ones((n,1))]); B2=1+KC**2; q=p+1
    rA=rb=rho/2
    sA=np.sqrt(2)*B2/np.sqrt(2*rA)/n; sb=2*np.sqrt(B2)/np.sqrt(2*rb)/n
    A=X.T@X/n+sym(rng,q,sA); b=X.T@ys/n+rng.normal(0,sb,q)
    t=np.sqrt(2*np.log(40))
    EA=sA*(2*np.sqrt(q)+2*t); Eb=sb*(np.sqrt(q)+t)
    if block:
        A[p,p]=KC**2  # exact, public
        Eff=sA*(2*np.sqrt(p)+2*t); ef0=sA*(np.sqrt(p)+t); ebf=sb*(np.sqrt(p)+t); eb0=sb*t
        lam=np.array([Eff+ef0+ebf]*p+[ef0+eb0])
    else:
        lam=np.full(q,EA+Eb)
    th=np.linalg.solve(A+np.diag(lam),b)
    return th
def run(**kw):
    out=[]
    for eps in [1.0,0.5]:
        rho=rho_of(eps,1e-6)
        for name,X,y in tables():
            lo,hi=X.min(0),X.max(0); ylo,yhi=y.min(),y.max(); r=[]
            for s in range(20):
                Xtr,Xte,ytr,yte=train_test_split(X,y,test_size=0.2,random_state=s)
                rng=np.random.default_rng(1000+s)
                xs,ys,c,h,yc,yh=boxscale(Xtr,ytr,lo,hi,ylo,yhi)
                th=fit(xs,ys,rho,rng,**kw); p=X.shape[1]
                pr=(np.hstack([np.clip((Xte-c)/h,-1,1)/np.sqrt(p),kw.get("KC",1.0)*np.ones((len(Xte),1))])@th)*yh+yc
                r.append(1-((pr-yte)**2).mean()/((yte-yte.mean())**2).mean())
            out.append(np.median(r))
    return " ".join(f"{v:6.3f}" for v in out)
for kc in [1.0,0.5,0.3]:
    print("KC",kc,"uniform",run(KC=kc,block=False))
    print("KC",kc,"block  ",run(KC=kc,block=True))
