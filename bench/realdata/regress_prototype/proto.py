import numpy as np, sys
from sklearn import datasets
from sklearn.model_selection import train_test_split
def rho_of(eps, delta):
    L=np.log(1/delta); return (np.sqrt(L+eps)-np.sqrt(L))**2
def tables():
    d=datasets.load_diabetes(scaled=False); yield "diabetes", d.data, d.target
    b=datasets.load_breast_cancer(); yield "breast_cancer", b.data, b.target.astype(float)
    w=datasets.load_wine().data; yield "wine(alcohol)", w[:,1:], w[:,0]
    i=datasets.load_iris().data; yield "iris(petal width)", i[:,:3], i[:,3]
    g=datasets.load_digits(); yield "digits(label)", g.data, g.target.astype(float)
def sym(rng,q,s):
    z=rng.normal(0,s,(q,q)); return np.triu(z)+np.triu(z,1).T
def boxscale(X,y,lo,hi,ylo,yhi):
    c=(lo+hi)/2; h=np.where(hi>lo,(hi-lo)/2,1.0)
    xs=np.clip((X-c)/h,-1,1); yc=(ylo+yhi)/2; yh=(yhi-ylo)/2
    return xs, np.clip((y-yc)/yh,-1,1), c,h,yc,yh
def l2clip(x,C):
    nr=np.linalg.norm(x,axis=1); f=np.minimum(1,C/np.maximum(nr,1e-300)); return x*f[:,None]
def specbound(sig,q):  # rough 95% bound on spectral norm of symmetric gaussian
    return sig*(2*np.sqrt(q)+2*np.sqrt(2*np.log(20)))
def adassp(xs,ys,rho,rng,C,centre_share=0.0,lam_mode="ada",radius=None):
    n,p=xs.shape
    if centre_share>0:
        r0=rho*centre_share; rho=rho-r0
        # private means of box-scaled x (each in [-1,1]; L2 sens 2 sqrt(p)/n) and y (2/n)
        s=np.sqrt(2*(p+1))/n/np.sqrt(2*r0)  # joint vector [x,y] in box of side 2: replace sens 2*sqrt(p+1)/n... use L2 bound
        s=2*np.sqrt(p+1)/n/np.sqrt(2*r0)
        mx=xs.mean(0)+rng.normal(0,s,p); my=ys.mean()+rng.normal(0,s)
        mx=np.clip(mx,-1,1); my=np.clip(my,-1,1)
        X=xs-mx; Y=ys-my
        Bx=C if C else 2*np.sqrt(p); By=2.0
        X=l2clip(X,Bx); Y=np.clip(Y,-By,By)
        Z=X
    else:
        Z=np.hstack([xs,np.ones((n,1))]); Bx=np.sqrt(p+1) if not C else np.sqrt(C**2+1); Z=l2clip(Z,Bx); Y=ys; By=1.0; mx=None
    q=Z.shape[1]; r=rho/3
    # xtx sens sqrt2 Bx^2 ; xty sens 2 Bx By ; lambda_min sens Bx^2
    s1=np.sqrt(2)*Bx**2/np.sqrt(2*r); s2=2*Bx*By/np.sqrt(2*r); s3=Bx**2/np.sqrt(2*r)
    A=Z.T@Z; b=Z.T@Y
    lmin=np.linalg.eigvalsh(A)[0]
    delta=1e-6
    lmin_t=max(lmin+s3*rng.normal()-s3*np.sqrt(2*np.log(6/delta)),0)
    An=A+sym(rng,q,s1); bn=b+rng.normal(0,s2,q)
    E=specbound(s1,q)
    if lam_mode=="ada": lam=max(0,E-lmin_t)
    elif lam_mode=="half": lam=max(0,E/2-lmin_t)
    An=An+lam*np.eye(q)
    w,V=np.linalg.eigh(An); w=np.maximum(w,E*0.1 if lam==0 else 1e-9)
    th=V@((V.T@bn)/w)
    return th,mx,(my if centre_share>0 else None)
def predict_fn(method,Xtr,ytr,lo,hi,ylo,yhi,rho,rng,**kw):
    xs,ys,c,h,yc,yh=boxscale(Xtr,ytr,lo,hi,ylo,yhi)
    n,p=xs.shape
    if method=="mean":
        return lambda X: np.full(len(X),ytr.mean())
    th,mx,my=adassp(xs,ys,rho,rng,**kw)
    def f(X):
        z=np.clip((X-c)/h,-1,1)
        if mx is None: return (np.hstack([z,np.ones((len(X),1))])@th)*yh+yc
        return (my+(z-mx)@th)*yh+yc
    return f
def main():
    seeds=20
    for eps in [1.0,0.5]:
        rho=rho_of(eps,1e-6)
        for name,X,y in tables():
            lo,hi=X.min(0),X.max(0); ylo,yhi=y.min(),y.max()
            res={}
            for s in range(seeds):
                Xtr,Xte,ytr,yte=train_test_split(X,y,test_size=0.2,random_state=s)
                rng=np.random.default_rng(1000+s)
                vt=((yte-yte.mean())**2).mean()
                # OLS
                A=np.hstack([Xtr,np.ones((len(Xtr),1))]); th=np.linalg.lstsq(A,ytr,rcond=None)[0]
                res.setdefault("ols",[]).append(1-((np.hstack([Xte,np.ones((len(Xte),1))])@th-yte)**2).mean()/vt)
                for lab,kw in [("ada-noncentred",dict(C=None)),("ada-centred",dict(C=None,centre_share=0.1)),
                               ("ada-centred-C1",dict(C=1.0,centre_share=0.1)),("ada-centred-Chalf",dict(C=0.5,centre_share=0.1)),
                               ("ada-centred-C1-half",dict(C=1.0,centre_share=0.1,lam_mode="half")),("mean",None)]:
                    f=predict_fn("mean" if kw is None else "ada",Xtr,ytr,lo,hi,ylo,yhi,rho,rng,**(kw or {}))
                    res.setdefault(lab,[]).append(1-((f(Xte)-yte)**2).mean()/vt)
            print(f"eps={eps} {name:18s} n={len(X)} p={X.shape[1]} "+" ".join(f"{k}={np.median(v):.3f}" for k,v in res.items()))
main()
